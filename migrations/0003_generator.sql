CREATE TABLE `credit_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount` real NOT NULL,
	`category` text NOT NULL,
	`reason` text NOT NULL,
	`reference` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_ledger_user_reference` ON `credit_ledger` (`user_id`,`reference`);--> statement-breakpoint
CREATE INDEX `credit_ledger_user_created` ON `credit_ledger` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `design_settings_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`settings` text NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `design_settings_profiles_user_name` ON `design_settings_profiles` (`user_id`,`name_key`);--> statement-breakpoint
CREATE INDEX `design_settings_profiles_user_updated` ON `design_settings_profiles` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`date` text NOT NULL,
	`posts` text NOT NULL,
	`post_count` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `drafts_user_updated` ON `drafts` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `pin_history` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`action` text NOT NULL,
	`category` text NOT NULL,
	`credits` real NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`media_type` text DEFAULT 'image' NOT NULL,
	`board_id` text,
	`board_name` text,
	`pinterest_profile` text,
	`pinterest_pin_id` text,
	`reference` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pin_history_user_reference` ON `pin_history` (`user_id`,`reference`);--> statement-breakpoint
CREATE INDEX `pin_history_user_created` ON `pin_history` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `user_media` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`media_type` text NOT NULL,
	`object_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`font_family` text,
	`source_format` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_media_user_type_created` ON `user_media` (`user_id`,`media_type`,`created_at`);