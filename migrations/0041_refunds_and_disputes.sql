-- Refunds, disputes and chargebacks (issue 37, docs/decisions/077-refunds-and-disputes.md): a payment taken back
-- takes back what it bought, once, whatever order the providers' events arrive in.
--
-- Each refund, or lost dispute, of a payment is a row, keyed by the provider's id of it, so a second delivery
-- adds nothing. `payment_ref` names the payment as commissions key it: a Stripe invoice (in_...) or lifetime
-- checkout session (cs_...), a PayPal sale id, a Shopify billing interval ("{charge gid}@{period end}").
-- What a payment has lost is the sum of its rows, at most the payment.
CREATE TABLE `payment_reversals` (
	`provider` text NOT NULL,
	`reversal_ref` text NOT NULL,
	`payment_ref` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`payment_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`reversed_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`provider`, `reversal_ref`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_reversals_payment` ON `payment_reversals` (`provider`, `payment_ref`);
--> statement-breakpoint
-- A plan record's period taken back: the payment that bought it was refunded in full or lost to a dispute.
-- Kept apart from `subscriptions` because the refund may arrive before the record does; savePlanRecord copies
-- the latest period into the record's revoked_* columns whichever comes first.
CREATE TABLE `plan_revocations` (
	`provider` text NOT NULL,
	`provider_ref` text NOT NULL,
	`payment_ref` text NOT NULL,
	`period_start` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`provider`, `provider_ref`, `payment_ref`)
);
--> statement-breakpoint
-- The record gives no plan while its current period starts at or before `revoked_period_start`.
ALTER TABLE `subscriptions` ADD `revoked_period_start` integer;
--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `revoked_reason` text;
--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `revoked_at` integer;
--> statement-breakpoint
-- A negative commission row takes back (part of) the commission of the charge it names.
ALTER TABLE `affiliate_commissions` ADD `reverses_charge_ref` text;
--> statement-breakpoint
CREATE INDEX `affiliate_commissions_reverses` ON `affiliate_commissions` (`provider`, `reverses_charge_ref`) WHERE `reverses_charge_ref` IS NOT NULL;
--> statement-breakpoint
-- The referrer's credit taken back with the payment that earned it; a later first payment that sticks earns it again.
ALTER TABLE `referrals` ADD `reversed_at` integer;
--> statement-breakpoint
ALTER TABLE `referrals` ADD `reversed_payment_ref` text;
--> statement-breakpoint
ALTER TABLE `referrals` ADD `reversal_txn_id` text;
