-- Issue 37 (docs/decisions/079-one-reward-per-mailbox.md): the mailboxes that had a referral's free month,
-- one row per claim, kept for ever. The key is an HMAC of the canonical mailbox (services/mailboxes.ts):
-- the table holds no address, and no row names an account, so it outlives closed accounts.
CREATE TABLE `free_month_mailboxes` (
	`mailbox_key` text PRIMARY KEY NOT NULL,
	`claimed_at` integer NOT NULL
);
--> statement-breakpoint
-- Issue 37 (docs/decisions/080-mail-to-typed-addresses.md): when a reviewer's invite was last e-mailed, so a
-- pending invite is not e-mailed again within a day. Invites sent before count from the reviewer's creation.
ALTER TABLE `approval_reviewers` ADD `invite_sent_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `approval_reviewers` SET `invite_sent_at` = `created_at`;
--> statement-breakpoint
-- Claims made before this migration are recorded in free_month_mailboxes by the cron sweep (the key needs the
-- worker's secret): mailbox_recorded = 0 marks the claims still to record, new claims are written as 1.
ALTER TABLE `referrals` ADD `mailbox_recorded` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `referrals_mailbox_unrecorded` ON `referrals` (`referred_user_id`) WHERE `mailbox_recorded` = 0;
