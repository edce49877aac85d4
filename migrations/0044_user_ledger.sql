-- Issue 38 (docs/decisions/084-user-ledger.md): the per-pin records (credit_ledger, credit_month_totals, pin_history,
-- pin_renders, idempotency_keys) move to one UserLedger Durable Object per user. Each user's rows are copied on the
-- first touch of their object, or by the cron's sweep, which finds the users left through this column and index;
-- the copied rows are then deleted here. A later migration drops the emptied tables once the sweep reports none left.
ALTER TABLE `users` ADD `ledger_moved_at` integer;
--> statement-breakpoint
CREATE INDEX `users_ledger_unmoved` ON `users` (`created_at`) WHERE `ledger_moved_at` IS NULL;
--> statement-breakpoint
-- The columns the ledger's copies of these tables carry (retention of renders after posting); kept here so the
-- drizzle schema describes both until the emptied tables are dropped.
ALTER TABLE `pin_history` ADD `pinterest_image_url` text;
--> statement-breakpoint
ALTER TABLE `pin_history` ADD `render_deleted_at` integer;
--> statement-breakpoint
ALTER TABLE `pin_renders` ADD `posted_at` integer;
--> statement-breakpoint
ALTER TABLE `pin_renders` ADD `pin_id` text;
--> statement-breakpoint
ALTER TABLE `pin_renders` ADD `keep` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Tables that grow per request are pruned by the cron (workers/services/table-retention.ts), each through its time.
CREATE INDEX `pinterest_oauth_states_expires` ON `pinterest_oauth_states` (`expires_at`);
--> statement-breakpoint
CREATE INDEX `etsy_oauth_states_expires` ON `etsy_oauth_states` (`expires_at`);
--> statement-breakpoint
CREATE INDEX `shopify_oauth_states_expires` ON `shopify_oauth_states` (`expires_at`);
--> statement-breakpoint
CREATE INDEX `password_resets_expires` ON `password_resets` (`expires_at`);
--> statement-breakpoint
CREATE INDEX `auth_sessions_expires` ON `auth_sessions` (`expires_at`);
--> statement-breakpoint
CREATE INDEX `auth_sessions_revoked` ON `auth_sessions` (`revoked_at`) WHERE `revoked_at` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `webhook_events_created` ON `webhook_events` (`created_at`);
--> statement-breakpoint
CREATE INDEX `billing_emails_sent` ON `billing_emails` (`sent_at`) WHERE `sent_at` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `trend_alert_runs_claimed` ON `trend_alert_runs` (`claimed_at`);
--> statement-breakpoint
CREATE INDEX `trend_alert_emails_sent` ON `trend_alert_emails` (`sent_at`);
