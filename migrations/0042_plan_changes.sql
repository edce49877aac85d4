-- Issue 37, defects 5 and 6 (docs/decisions/081-credits-across-plan-changes.md, 082-plan-change-notices-and-receipts.md).
--
-- 1. A credit month that opens with a plan change counts the spends since the month it interrupted began
--    (`spends_from`), so credits used this month are not forgotten when the plan changes. Plan grants still count
--    from `period_start` only: the new plan gives its own allowance. credits.ts decides `spends_from` when it writes a
--    month's row and it never moves after; a month that does not open with a change has spends_from = period_start,
--    as every row written before this migration has.
--    SQLite cannot add a CHECK to a table, so the table is made again and its rows copied; its triggers on
--    credit_ledger are replaced, since they now look for rows whose [spends_from, period_end) holds a ledger row's date.
DROP TRIGGER `credit_ledger_totals_insert`;
--> statement-breakpoint
DROP TRIGGER `credit_ledger_totals_delete`;
--> statement-breakpoint
DROP TRIGGER `credit_ledger_totals_update`;
--> statement-breakpoint
CREATE TABLE `credit_month_totals_new` (
	`user_id` text NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`spends_from` integer NOT NULL,
	`grants` real DEFAULT 0 NOT NULL,
	`paid_grants` real DEFAULT 0 NOT NULL,
	`admin_grants` real DEFAULT 0 NOT NULL,
	`spends` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `period_start`, `period_end`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CHECK (`period_end` > `period_start` AND `period_end` - `period_start` <= 2764800000 AND `spends_from` <= `period_start` AND `period_start` - `spends_from` <= 2764800000)
);
--> statement-breakpoint
INSERT INTO `credit_month_totals_new` (`user_id`, `period_start`, `period_end`, `spends_from`, `grants`, `paid_grants`, `admin_grants`, `spends`)
SELECT `user_id`, `period_start`, `period_end`, `period_start`, `grants`, `paid_grants`, `admin_grants`, `spends` FROM `credit_month_totals`;
--> statement-breakpoint
DROP TABLE `credit_month_totals`;
--> statement-breakpoint
ALTER TABLE `credit_month_totals_new` RENAME TO `credit_month_totals`;
--> statement-breakpoint
-- A ledger row dated c counts in every row of its user with spends_from <= c < period_end: its spends and admin grants
-- there, its plan grants only where period_start <= c. Both bounds are within 32 days of period_start, so the primary
-- key is searched from c - 32 days to c + 32 days: a few rows, whatever the age of the account.
CREATE TRIGGER `credit_ledger_totals_insert` AFTER INSERT ON `credit_ledger` BEGIN
	UPDATE `credit_month_totals` SET
		`grants` = `grants` + CASE WHEN `period_start` <= NEW.created_at AND NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`paid_grants` = `paid_grants` + CASE WHEN `period_start` <= NEW.created_at AND NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' AND NEW.reference NOT LIKE 'grant:free:%' THEN NEW.amount ELSE 0 END,
		`admin_grants` = `admin_grants` + CASE WHEN NEW.amount > 0 AND NEW.reference LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`spends` = `spends` + CASE WHEN NEW.amount < 0 OR NEW.reference LIKE 'reversal:%' THEN NEW.amount ELSE 0 END
	WHERE `user_id` = NEW.user_id AND `period_start` > NEW.created_at - 2764800000 AND `period_start` <= NEW.created_at + 2764800000
		AND `spends_from` <= NEW.created_at AND `period_end` > NEW.created_at;
END;
--> statement-breakpoint
CREATE TRIGGER `credit_ledger_totals_delete` AFTER DELETE ON `credit_ledger` BEGIN
	UPDATE `credit_month_totals` SET
		`grants` = `grants` - CASE WHEN `period_start` <= OLD.created_at AND OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`paid_grants` = `paid_grants` - CASE WHEN `period_start` <= OLD.created_at AND OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' AND OLD.reference NOT LIKE 'grant:free:%' THEN OLD.amount ELSE 0 END,
		`admin_grants` = `admin_grants` - CASE WHEN OLD.amount > 0 AND OLD.reference LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`spends` = `spends` - CASE WHEN OLD.amount < 0 OR OLD.reference LIKE 'reversal:%' THEN OLD.amount ELSE 0 END
	WHERE `user_id` = OLD.user_id AND `period_start` > OLD.created_at - 2764800000 AND `period_start` <= OLD.created_at + 2764800000
		AND `spends_from` <= OLD.created_at AND `period_end` > OLD.created_at;
END;
--> statement-breakpoint
-- A changed row: taken out of the months that held it as it was, put into those that hold it as it is.
CREATE TRIGGER `credit_ledger_totals_update` AFTER UPDATE OF `user_id`, `amount`, `reference`, `created_at` ON `credit_ledger` BEGIN
	UPDATE `credit_month_totals` SET
		`grants` = `grants` - CASE WHEN `period_start` <= OLD.created_at AND OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`paid_grants` = `paid_grants` - CASE WHEN `period_start` <= OLD.created_at AND OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' AND OLD.reference NOT LIKE 'grant:free:%' THEN OLD.amount ELSE 0 END,
		`admin_grants` = `admin_grants` - CASE WHEN OLD.amount > 0 AND OLD.reference LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`spends` = `spends` - CASE WHEN OLD.amount < 0 OR OLD.reference LIKE 'reversal:%' THEN OLD.amount ELSE 0 END
	WHERE `user_id` = OLD.user_id AND `period_start` > OLD.created_at - 2764800000 AND `period_start` <= OLD.created_at + 2764800000
		AND `spends_from` <= OLD.created_at AND `period_end` > OLD.created_at;
	UPDATE `credit_month_totals` SET
		`grants` = `grants` + CASE WHEN `period_start` <= NEW.created_at AND NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`paid_grants` = `paid_grants` + CASE WHEN `period_start` <= NEW.created_at AND NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' AND NEW.reference NOT LIKE 'grant:free:%' THEN NEW.amount ELSE 0 END,
		`admin_grants` = `admin_grants` + CASE WHEN NEW.amount > 0 AND NEW.reference LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`spends` = `spends` + CASE WHEN NEW.amount < 0 OR NEW.reference LIKE 'reversal:%' THEN NEW.amount ELSE 0 END
	WHERE `user_id` = NEW.user_id AND `period_start` > NEW.created_at - 2764800000 AND `period_start` <= NEW.created_at + 2764800000
		AND `spends_from` <= NEW.created_at AND `period_end` > NEW.created_at;
END;
--> statement-breakpoint
-- 2. The start of the billing period of a plan record that opened with a plan change: the record's first period (a plan
--    taken), or one a switch of its plan started (Stripe bills an interval switch from the moment of the switch). The
--    credit month that starts there counts the month's spends before it; a renewal's does not. NULL: none known (rows
--    written before this migration).
ALTER TABLE `subscriptions` ADD `change_period_start` integer;
--> statement-breakpoint
-- 3. Billing e-mails (decision 082): a receipt per payment and a confirmation per cancellation, claimed here before
--    they are sent. `reference` names the payment or the cancellation at its provider, so a webhook delivered twice,
--    the browser's activation beside it, or the cron sweep never send a second one; `details` is what the e-mail says
--    (JSON), so one that could not be sent at once is sent by the cron (sent_at is null until it goes).
CREATE TABLE `billing_emails` (
	`reference` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`details` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_emails_unsent` ON `billing_emails` (`created_at`) WHERE `sent_at` IS NULL;
