CREATE TABLE `plans` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`tier` text NOT NULL,
	`billing_period` text NOT NULL,
	`price` real NOT NULL,
	`credits_per_month` integer NOT NULL,
	`free_trial_days` integer NOT NULL,
	`plan_order` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `scheduler_index` (
	`profile_key` text PRIMARY KEY NOT NULL,
	`next_due_at` integer,
	`pending_count` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `scheduler_index_next_due` ON `scheduler_index` (`next_due_at`);--> statement-breakpoint
CREATE TABLE `video_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`payload` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `video_jobs_user` ON `video_jobs` (`user_id`);