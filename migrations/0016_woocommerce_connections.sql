-- WooCommerce connections under way (docs/decisions/030): the keys a store sends wait here, sealed, for the browser that started the connection.
CREATE TABLE `woocommerce_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`store_url` text NOT NULL,
	`store_name` text NOT NULL,
	`browser_hash` text NOT NULL,
	`redirect_url` text NOT NULL,
	`status` text NOT NULL,
	`keys_sealed` text,
	`error` text,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `woocommerce_connections_user` ON `woocommerce_connections` (`user_id`);
