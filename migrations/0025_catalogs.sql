-- Pinterest catalogs (issue 18, docs/decisions/043-pinterest-catalogs.md): a user's named sets of products, each
-- published to Pinterest as a product feed file (a data source) at a public address named by an unguessable token.
-- `feed_token` names the file; `pinterest_feed_id` is Pinterest's id of the data source once registered (with the
-- connected profile it was registered for); the last publish, ingestion and processing result are kept for the page.
CREATE TABLE `catalogs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`pinterest_profile_id` text REFERENCES `pinterest_profiles`(`id`) ON DELETE set null,
	`feed_token` text NOT NULL,
	`currency` text NOT NULL DEFAULT 'USD',
	`country` text NOT NULL DEFAULT 'US',
	`locale` text NOT NULL DEFAULT 'en-US',
	`pinterest_feed_id` text,
	`pinterest_feed_username` text,
	`published_at` integer,
	`published_item_count` integer,
	`left_out_item_count` integer,
	`last_ingestion_id` text,
	`last_error` text,
	`changed_since_publish` integer NOT NULL DEFAULT 0,
	`updated_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalogs_feed_token` ON `catalogs` (`feed_token`);
--> statement-breakpoint
CREATE INDEX `catalogs_user` ON `catalogs` (`user_id`, `created_at`);
--> statement-breakpoint
-- Items of a catalog: a product from a shop listing or a CSV row. `images` is a JSON array of addresses (the first is
-- the main image); `image_sizes` caches the measured width and height of each address for the pre-publish checks.
-- `price` is a decimal string ("24.99") in `currency`, '' when the product has none.
CREATE TABLE `catalog_items` (
	`id` text PRIMARY KEY NOT NULL,
	`catalog_id` text NOT NULL REFERENCES `catalogs`(`id`) ON DELETE cascade,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`link` text NOT NULL,
	`price` text NOT NULL,
	`currency` text NOT NULL,
	`availability` text NOT NULL CHECK (`availability` IN ('in stock', 'out of stock', 'preorder')),
	`brand` text NOT NULL DEFAULT '',
	`condition` text NOT NULL DEFAULT '' CHECK (`condition` IN ('', 'new', 'used', 'refurbished')),
	`categories` text NOT NULL DEFAULT '[]',
	`images` text NOT NULL DEFAULT '[]',
	`image_sizes` text NOT NULL DEFAULT '{}',
	`position` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `catalog_items_catalog` ON `catalog_items` (`catalog_id`, `position`);
--> statement-breakpoint
CREATE INDEX `catalog_items_user` ON `catalog_items` (`user_id`);
