-- Issue 41 (decision 093): the weekly insights e-mail, opt-in per user. weekly_summary_at: when the user turned it on
-- (null: off, the default; the e-mail's unsubscribe link sets it back to null). weekly_summary_week: the last week
-- (ISO year and week, "2026-W49") it was sent for, claimed before sending, so a week is mailed at most once.
ALTER TABLE `users` ADD COLUMN `weekly_summary_at` integer;
--> statement-breakpoint
ALTER TABLE `users` ADD COLUMN `weekly_summary_week` text;
--> statement-breakpoint
CREATE INDEX `users_weekly_summary` ON `users` (`weekly_summary_week`) WHERE `weekly_summary_at` IS NOT NULL;
