CREATE TABLE `redeem_codes` (
	`code` text PRIMARY KEY NOT NULL,
	`plan_id` text NOT NULL,
	`months` integer,
	`batch_id` text NOT NULL,
	`created_by` text,
	`redeemed_by` text,
	`redeemed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`redeemed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `redeem_codes_batch` ON `redeem_codes` (`batch_id`);--> statement-breakpoint
CREATE INDEX `redeem_codes_redeemed_by` ON `redeem_codes` (`redeemed_by`);