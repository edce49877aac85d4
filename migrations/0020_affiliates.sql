-- Affiliate programme (issue 16, docs/decisions/035): affiliate profiles, counted clicks, attributed
-- customers, commission rows (one per provider charge) and payouts.
CREATE TABLE `affiliates` (
	`user_id` text PRIMARY KEY NOT NULL,
	`affiliate_id` text NOT NULL,
	`wise_tag` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `affiliates_affiliate_id` ON `affiliates` (`affiliate_id`);
--> statement-breakpoint
CREATE TABLE `affiliate_clicks` (
	`affiliate_id` text NOT NULL,
	`visitor_key` text NOT NULL,
	`clicked_at` integer NOT NULL,
	PRIMARY KEY(`affiliate_id`, `visitor_key`)
);
--> statement-breakpoint
CREATE INDEX `affiliate_clicks_time` ON `affiliate_clicks` (`affiliate_id`, `clicked_at`);
--> statement-breakpoint
CREATE TABLE `affiliate_customers` (
	`user_id` text PRIMARY KEY NOT NULL,
	`affiliate_id` text NOT NULL,
	`clicked_at` integer NOT NULL,
	`attributed_at` integer NOT NULL,
	`source` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `affiliate_customers_affiliate` ON `affiliate_customers` (`affiliate_id`, `attributed_at`);
--> statement-breakpoint
CREATE TABLE `affiliate_payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`affiliate_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`wise_tag` text,
	`paid_at` integer NOT NULL,
	`paid_by` text,
	FOREIGN KEY (`paid_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `affiliate_payouts_affiliate` ON `affiliate_payouts` (`affiliate_id`, `paid_at`);
--> statement-breakpoint
CREATE TABLE `affiliate_commissions` (
	`provider` text NOT NULL,
	`charge_ref` text NOT NULL,
	`affiliate_id` text NOT NULL,
	`customer_user_id` text,
	`plan_id` text,
	`amount_cents` integer NOT NULL,
	`commission_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`charged_at` integer NOT NULL,
	`payable_at` integer NOT NULL,
	`payout_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`provider`, `charge_ref`),
	FOREIGN KEY (`customer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`payout_id`) REFERENCES `affiliate_payouts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `affiliate_commissions_affiliate` ON `affiliate_commissions` (`affiliate_id`, `payable_at`);
