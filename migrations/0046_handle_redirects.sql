-- Issue 40 point 9: a handle a user had before leads to their handle now (workers/db/schema.ts handleRedirects).
-- A user's current handle wins over anyone's old one; the newest few per user are kept; the account's deletion
-- deletes them (the foreign key's cascade).
CREATE TABLE `handle_redirects` (
	`old_handle` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `handle_redirects_user` ON `handle_redirects` (`user_id`,`created_at`);
