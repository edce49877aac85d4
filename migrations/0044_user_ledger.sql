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
