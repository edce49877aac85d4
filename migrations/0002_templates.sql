CREATE TABLE `color_palettes` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`colors` text NOT NULL,
	`position` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `template_categories` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `template_categories_owner_name` ON `template_categories` (`owner_id`,`name_key`);--> statement-breakpoint
CREATE TABLE `template_favorites` (
	`user_id` text NOT NULL,
	`template_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `template_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `template_favorites_template` ON `template_favorites` (`template_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`title` text NOT NULL,
	`design` text NOT NULL,
	`categories` text DEFAULT '[]' NOT NULL,
	`is_standard` integer DEFAULT false NOT NULL,
	`is_shared` integer DEFAULT false NOT NULL,
	`favorite_count` integer DEFAULT 0 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `templates_owner_updated` ON `templates` (`owner_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `templates_shared` ON `templates` (`is_shared`,`updated_at`);--> statement-breakpoint
CREATE INDEX `templates_standard` ON `templates` (`is_standard`,`position`);