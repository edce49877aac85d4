-- Issue 38 (docs/decisions/084-user-ledger.md): the per-pin records (credit_ledger, credit_month_totals, pin_history,
-- pin_renders, idempotency_keys) move to one UserLedger Durable Object per user. Each user's rows are copied on the
-- first touch of their object, or by the cron's sweep, which finds the users left through this column and index;
-- the copied rows are then deleted here. A later migration drops the emptied tables once the sweep reports none left.
ALTER TABLE `users` ADD `ledger_moved_at` integer;
--> statement-breakpoint
CREATE INDEX `users_ledger_unmoved` ON `users` (`created_at`) WHERE `ledger_moved_at` IS NULL;
