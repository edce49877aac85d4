-- Issue 42 (decision 097): addresses no e-mail goes to any more, from Resend's webhooks. address: lower-cased and
-- trimmed. reason: 'hard_bounce' (a Permanent bounce, or Resend refusing an address on its own suppression list) or
-- 'complaint' (marked as spam). expires_at: when the cron forgets the row (a hard bounce 180 days after it came); null
-- for a complaint, kept for good. A complaint is never weakened to a bounce by a later event.
CREATE TABLE `email_suppressions` (
  `address` text PRIMARY KEY NOT NULL,
  `reason` text NOT NULL CHECK (`reason` IN ('hard_bounce', 'complaint')),
  `detail` text NOT NULL DEFAULT '',
  `event_id` text,
  `suppressed_at` integer NOT NULL,
  `expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `email_suppressions_expiry` ON `email_suppressions` (`expires_at`) WHERE `expires_at` IS NOT NULL;
