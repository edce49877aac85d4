-- Decision 084: the per-pin tables left D1 for each user's UserLedger object. NOT applied yet, on purpose:
-- move this file into migrations/ (keeping its number after the last applied one) only when production answers 0 to
--   npx wrangler d1 execute DB --remote --command "SELECT count(*) AS left FROM users WHERE ledger_moved_at IS NULL"
-- (the cron's sweep moves 50 users a run; a user is marked once their D1 rows are in their object and gone from D1).
-- Dropped with their indexes and triggers. Nothing reads these tables for a user marked moved
-- (durable-objects/ledger/move.ts), and no other table refers to them.
DROP TRIGGER IF EXISTS `credit_ledger_totals_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `credit_ledger_totals_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `credit_ledger_totals_update`;--> statement-breakpoint
DROP TABLE IF EXISTS `credit_month_totals`;--> statement-breakpoint
DROP TABLE IF EXISTS `credit_ledger`;--> statement-breakpoint
DROP TABLE IF EXISTS `pin_history`;--> statement-breakpoint
DROP TABLE IF EXISTS `pin_renders`;--> statement-breakpoint
DROP TABLE IF EXISTS `idempotency_keys`;--> statement-breakpoint
DROP TABLE IF EXISTS `drafts`;--> statement-breakpoint
DROP TABLE IF EXISTS `user_media`;
