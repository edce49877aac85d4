-- Post approvals (issue 20, docs/decisions/052-post-approvals.md): a profile whose pins need a reviewer's
-- approval before they post, the reviewers its owner invited (each with the id of its signed link, so removing
-- the reviewer revokes the link), and every decision a reviewer took (one per pin).
CREATE TABLE `approval_settings` (
	`profile_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`required` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `pinterest_profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `approval_reviewers` (
	`id` text PRIMARY KEY NOT NULL,
	`profile_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`link_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`removed_at` integer,
	FOREIGN KEY (`profile_id`) REFERENCES `pinterest_profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `approval_reviewers_link` ON `approval_reviewers` (`link_id`);--> statement-breakpoint
CREATE INDEX `approval_reviewers_profile` ON `approval_reviewers` (`profile_id`,`removed_at`);--> statement-breakpoint
CREATE TABLE `approval_decisions` (
	`id` text PRIMARY KEY NOT NULL,
	`profile_id` text NOT NULL,
	`user_id` text NOT NULL,
	`pin_id` text NOT NULL,
	`reviewer_id` text,
	`reviewer_email` text NOT NULL,
	`decision` text NOT NULL,
	`comment` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`image_url` text,
	`scheduled_for` integer,
	`batch_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `pinterest_profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewer_id`) REFERENCES `approval_reviewers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `approval_decisions_pin` ON `approval_decisions` (`profile_id`,`pin_id`);--> statement-breakpoint
CREATE INDEX `approval_decisions_profile_created` ON `approval_decisions` (`profile_id`,`created_at`);
