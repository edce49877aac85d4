-- Blog posts and content pages (issue 17, docs/decisions/039-content-in-d1.md): Markdown stored in D1, rendered
-- to sanitised HTML when read. One table for both kinds; a slug is unique within its kind (/blog/:slug, /page/:slug).
-- A draft has no published_at; published_at is kept when a post is unpublished and published again.
CREATE TABLE `content_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL CHECK (`kind` IN ('post', 'page')),
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`body` text NOT NULL,
	`cover_image` text,
	`cover_alt` text,
	`author` text NOT NULL,
	`status` text NOT NULL CHECK (`status` IN ('draft', 'published')),
	`published_at` integer,
	`updated_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `content_entries_kind_slug` ON `content_entries` (`kind`, `slug`);
--> statement-breakpoint
CREATE INDEX `content_entries_listing` ON `content_entries` (`kind`, `status`, `published_at`);
