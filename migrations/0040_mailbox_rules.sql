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
