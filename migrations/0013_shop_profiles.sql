-- Connected shops (docs/decisions/027): Etsy, Shopify and WooCommerce, credentials sealed at rest.
CREATE TABLE `shop_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`shop_type` text NOT NULL,
	`shop_id` text NOT NULL,
	`shop_name` text NOT NULL,
	`shop_url` text,
	`credentials_sealed` text NOT NULL,
	`scopes` text DEFAULT '' NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'ok' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shop_profiles_user_shop` ON `shop_profiles` (`user_id`,`shop_type`,`shop_id`);--> statement-breakpoint
CREATE INDEX `shop_profiles_user` ON `shop_profiles` (`user_id`);
