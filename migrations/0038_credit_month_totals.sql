-- Issue 21, target 5 (docs/decisions/063-credit-month-totals.md): a billing month's balance read from one row
-- instead of summing the month's credit_ledger rows (82,000 of them at the end of a heavy month).
--
-- One row per user and billing month [period_start, period_end) as credits.ts counts it, holding the sums the
-- balance needs, split as its rules require (credits.ts: GRANT_ROW, the paid plans' grants among them (not 'grant:free:'),
-- ADMIN_GRANT_ROW, SPEND_ROW). credits.ts writes a month's row, summed from the ledger once, in the batch that first counts that
-- month; from then on the triggers below keep every row whose month holds a ledger row's created_at equal to the
-- ledger's sums, whichever path writes, changes or deletes the ledger row (and in the same statement).
-- A billing month is at most 31 days; the CHECK holds every row to 32 days, which bounds the triggers' index range.
CREATE TABLE `credit_month_totals` (
	`user_id` text NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`grants` real DEFAULT 0 NOT NULL,
	`paid_grants` real DEFAULT 0 NOT NULL,
	`admin_grants` real DEFAULT 0 NOT NULL,
	`spends` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `period_start`, `period_end`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CHECK (`period_end` > `period_start` AND `period_end` - `period_start` <= 2764800000)
);
--> statement-breakpoint
CREATE TRIGGER `credit_ledger_totals_insert` AFTER INSERT ON `credit_ledger` BEGIN
	UPDATE `credit_month_totals` SET
		`grants` = `grants` + CASE WHEN NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`paid_grants` = `paid_grants` + CASE WHEN NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' AND NEW.reference NOT LIKE 'grant:free:%' THEN NEW.amount ELSE 0 END,
		`admin_grants` = `admin_grants` + CASE WHEN NEW.amount > 0 AND NEW.reference LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`spends` = `spends` + CASE WHEN NEW.amount < 0 OR NEW.reference LIKE 'reversal:%' THEN NEW.amount ELSE 0 END
	WHERE `user_id` = NEW.user_id AND `period_start` <= NEW.created_at AND `period_start` > NEW.created_at - 2764800000 AND `period_end` > NEW.created_at;
END;
--> statement-breakpoint
CREATE TRIGGER `credit_ledger_totals_delete` AFTER DELETE ON `credit_ledger` BEGIN
	UPDATE `credit_month_totals` SET
		`grants` = `grants` - CASE WHEN OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`paid_grants` = `paid_grants` - CASE WHEN OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' AND OLD.reference NOT LIKE 'grant:free:%' THEN OLD.amount ELSE 0 END,
		`admin_grants` = `admin_grants` - CASE WHEN OLD.amount > 0 AND OLD.reference LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`spends` = `spends` - CASE WHEN OLD.amount < 0 OR OLD.reference LIKE 'reversal:%' THEN OLD.amount ELSE 0 END
	WHERE `user_id` = OLD.user_id AND `period_start` <= OLD.created_at AND `period_start` > OLD.created_at - 2764800000 AND `period_end` > OLD.created_at;
END;
--> statement-breakpoint
-- A changed row: taken out of the months that held it as it was, put into those that hold it as it is.
CREATE TRIGGER `credit_ledger_totals_update` AFTER UPDATE OF `user_id`, `amount`, `reference`, `created_at` ON `credit_ledger` BEGIN
	UPDATE `credit_month_totals` SET
		`grants` = `grants` - CASE WHEN OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`paid_grants` = `paid_grants` - CASE WHEN OLD.amount > 0 AND OLD.reference NOT LIKE 'reversal:%' AND OLD.reference NOT LIKE 'admin-grant:%' AND OLD.reference NOT LIKE 'grant:free:%' THEN OLD.amount ELSE 0 END,
		`admin_grants` = `admin_grants` - CASE WHEN OLD.amount > 0 AND OLD.reference LIKE 'admin-grant:%' THEN OLD.amount ELSE 0 END,
		`spends` = `spends` - CASE WHEN OLD.amount < 0 OR OLD.reference LIKE 'reversal:%' THEN OLD.amount ELSE 0 END
	WHERE `user_id` = OLD.user_id AND `period_start` <= OLD.created_at AND `period_start` > OLD.created_at - 2764800000 AND `period_end` > OLD.created_at;
	UPDATE `credit_month_totals` SET
		`grants` = `grants` + CASE WHEN NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`paid_grants` = `paid_grants` + CASE WHEN NEW.amount > 0 AND NEW.reference NOT LIKE 'reversal:%' AND NEW.reference NOT LIKE 'admin-grant:%' AND NEW.reference NOT LIKE 'grant:free:%' THEN NEW.amount ELSE 0 END,
		`admin_grants` = `admin_grants` + CASE WHEN NEW.amount > 0 AND NEW.reference LIKE 'admin-grant:%' THEN NEW.amount ELSE 0 END,
		`spends` = `spends` + CASE WHEN NEW.amount < 0 OR NEW.reference LIKE 'reversal:%' THEN NEW.amount ELSE 0 END
	WHERE `user_id` = NEW.user_id AND `period_start` <= NEW.created_at AND `period_start` > NEW.created_at - 2764800000 AND `period_end` > NEW.created_at;
END;
