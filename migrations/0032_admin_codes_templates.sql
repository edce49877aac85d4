-- Admin console: redeem-code batches and standard templates (issue 20, docs/decisions/053-admin-codes-and-templates.md).
-- A batch of redeem codes is a row of its own (plan, months, expiry, note, who made it, whether it is disabled);
-- a code can be disabled on its own. Standard templates can be unpublished, and standard categories have an order.
CREATE TABLE `redeem_code_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`plan_id` text NOT NULL,
	`months` integer,
	`code_count` integer NOT NULL,
	`expires_at` integer,
	`note` text DEFAULT '' NOT NULL,
	`disabled_at` integer,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `redeem_code_batches_created` ON `redeem_code_batches` (`created_at`);--> statement-breakpoint
-- Batches made before this migration: one row each, from their codes.
INSERT INTO `redeem_code_batches` (`id`, `plan_id`, `months`, `code_count`, `created_by`, `created_at`)
	SELECT `batch_id`, min(`plan_id`), min(`months`), count(*), min(`created_by`), min(`created_at`) FROM `redeem_codes` GROUP BY `batch_id`;--> statement-breakpoint
ALTER TABLE `redeem_codes` ADD `disabled_at` integer;--> statement-breakpoint
ALTER TABLE `templates` ADD `is_published` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `template_categories` ADD `position` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Standard categories start in alphabetical order, as users saw them so far.
UPDATE `template_categories` SET `position` = (
	SELECT count(*) FROM `template_categories` AS `earlier`
	WHERE `earlier`.`owner_id` IS NULL AND `earlier`.`name_key` < `template_categories`.`name_key`
) WHERE `owner_id` IS NULL;
