-- Etsy connections in progress (docs/decisions/028): the state (hashed, one use, 10 minutes), the browser
-- that started it, and the PKCE code verifier, sealed, that only our server ever sends to Etsy.
CREATE TABLE `etsy_oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`redirect_url` text NOT NULL,
	`browser_hash` text NOT NULL,
	`code_verifier_sealed` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `etsy_oauth_states_user` ON `etsy_oauth_states` (`user_id`);
