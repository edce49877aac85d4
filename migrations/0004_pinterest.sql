CREATE TABLE `pinterest_oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`redirect_url` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pinterest_oauth_states_user` ON `pinterest_oauth_states` (`user_id`);--> statement-breakpoint
CREATE TABLE `pinterest_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`username` text NOT NULL,
	`account_type` text,
	`profile_image` text,
	`access_token_sealed` text NOT NULL,
	`refresh_token_sealed` text NOT NULL,
	`access_expires_at` integer NOT NULL,
	`refresh_expires_at` integer NOT NULL,
	`scopes` text DEFAULT '' NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'ok' NOT NULL,
	`last_error` text,
	`scheduling_settings` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pinterest_profiles_user_username` ON `pinterest_profiles` (`user_id`,`username`);--> statement-breakpoint
CREATE INDEX `pinterest_profiles_refresh` ON `pinterest_profiles` (`access_expires_at`);