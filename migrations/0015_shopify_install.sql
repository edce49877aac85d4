-- Shopify store connection (docs/decisions/029): the install flow's one-time states, bound to the
-- browser that started them, and installs begun on Shopify's side before the user had an account.
CREATE TABLE `shopify_oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`shop` text NOT NULL,
	`redirect_url` text NOT NULL,
	`browser_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shopify_oauth_states_user` ON `shopify_oauth_states` (`user_id`);--> statement-breakpoint
CREATE TABLE `shopify_anonymous_installs` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_hash` text NOT NULL,
	`shop` text NOT NULL,
	`shop_name` text NOT NULL,
	`shop_url` text,
	`credentials_sealed` text NOT NULL,
	`scopes` text DEFAULT '' NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
