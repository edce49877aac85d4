-- WordPress access keys (issue 20, docs/decisions/054-wordpress-access-key.md): at most one per user.
-- Only the SHA-256 of the key is stored (the key itself is shown once, when made), with its first
-- characters for the user to recognise it. Rotating replaces the hash in place; revoking deletes the row.
CREATE TABLE `wordpress_access_keys` (
	`user_id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wordpress_access_keys_hash` ON `wordpress_access_keys` (`key_hash`);
