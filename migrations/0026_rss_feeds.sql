-- RSS feeds for Pinterest's auto-publish (issue 18, docs/decisions/044-rss-feeds-for-auto-publish.md).
-- A feed reads a user's blog feed or sitemap and serves, at /api/rss/feed/{public_token}, an RSS 2.0 feed whose
-- items are the blog's new posts, each with a pin image we render. One item per source post and feed: the unique
-- index on (feed_id, source_key) is what makes a post rendered and charged at most once, whatever the cron does.
CREATE TABLE `rss_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`source_url` text NOT NULL,
	`source_kind` text NOT NULL CHECK (`source_kind` IN ('feed', 'sitemap')),
	`pinterest_username` text NOT NULL,
	`board_id` text NOT NULL,
	`board_name` text NOT NULL,
	`design_settings` text NOT NULL,
	`is_enabled` integer DEFAULT 1 NOT NULL,
	`paused_reason` text CHECK (`paused_reason` IS NULL OR `paused_reason` IN ('credits')),
	`paused_at` integer,
	`pause_email_sent_at` integer,
	`public_token` text NOT NULL,
	`last_checked_at` integer,
	`last_error` text,
	`last_error_at` integer,
	`checking_until` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rss_feeds_public_token` ON `rss_feeds` (`public_token`);
--> statement-breakpoint
CREATE INDEX `rss_feeds_user` ON `rss_feeds` (`user_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `rss_feeds_due` ON `rss_feeds` (`is_enabled`, `last_checked_at`);
--> statement-breakpoint
CREATE TABLE `rss_feed_items` (
	`id` text PRIMARY KEY NOT NULL,
	`feed_id` text NOT NULL,
	`user_id` text NOT NULL,
	`source_key` text NOT NULL,
	`status` text NOT NULL CHECK (`status` IN ('pending', 'ready', 'skipped', 'failed')),
	`title` text NOT NULL,
	`description` text NOT NULL,
	`link` text NOT NULL,
	`image_key` text,
	`image_bytes` integer,
	`credits_charged` real DEFAULT 0 NOT NULL,
	`charged_at` integer,
	`claimed_until` integer,
	`error` text,
	`posted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`feed_id`) REFERENCES `rss_feeds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rss_feed_items_feed_source` ON `rss_feed_items` (`feed_id`, `source_key`);
--> statement-breakpoint
CREATE INDEX `rss_feed_items_feed_created` ON `rss_feed_items` (`feed_id`, `created_at`);
