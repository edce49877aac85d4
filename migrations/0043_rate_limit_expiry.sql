-- Issue 37 (docs/decisions/083-smaller-trust-fixes.md): the cron sweep forgets expired rate-limit windows a bounded
-- batch at a time; this index lets it find them without reading the whole table.
CREATE INDEX `rate_limits_reset_at` ON `rate_limits` (`reset_at`);
