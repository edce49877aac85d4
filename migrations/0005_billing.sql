CREATE TABLE `billing_customers` (
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`customer_ref` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `provider`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_customers_ref` ON `billing_customers` (`provider`,`customer_ref`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text NOT NULL,
	`kind` text NOT NULL,
	`plan_id` text NOT NULL,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`ended_at` integer,
	`trial_end` integer,
	`cancel_reason` text,
	`affiliate_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_provider_ref` ON `subscriptions` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `subscriptions_user` ON `subscriptions` (`user_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`provider`, `event_id`)
);
--> statement-breakpoint
ALTER TABLE `plans` ADD `stripe_price_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `plans_stripe_price_id_unique` ON `plans` (`stripe_price_id`);