-- The referral programme (issue 16, docs/decisions/037-referral-programme.md): who referred whom, the referred
-- user's free month of Starter, and the referrer's $16.99 Stripe balance credit when the referred user first pays.
-- One row per referred user (the primary key): a person is referred, and gets the free month, once.
CREATE TABLE `referrals` (
	`referred_user_id` text PRIMARY KEY NOT NULL,
	`referrer_id` text,
	`referral_code` text NOT NULL,
	`recorded_at` integer NOT NULL,
	`first_paid_at` integer,
	`payment_ref` text,
	`credit_txn_id` text,
	`credited_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`referred_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referrer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `referrals_referrer` ON `referrals` (`referrer_id`, `first_paid_at`);
