-- Issue 21, target 5 (docs/decisions/066-pin-history-mirrors-the-queue.md): the pin history page reads D1 alone.
-- Each profile's queue (ProfileScheduler) writes a waiting pin's state here as it changes (history-mirror.ts):
-- scheduled, awaiting approval, paused, failed or deleted, with its time and the reason it waits or failed.
-- NULL in queue_state: an entry written before this migration, whose state only its queue knows until the queue
-- mirrors it (a queue mirrors every pin it holds the first time it wakes after this migration).
ALTER TABLE `pin_history` ADD `queue_state` text;
--> statement-breakpoint
ALTER TABLE `pin_history` ADD `queue_error` text;
--> statement-breakpoint
-- The entries still waiting, by profile: disconnecting a profile marks its waiting entries deleted without
-- reading the rest of a long history (pinterest-connection.ts, removeProfile).
CREATE INDEX `pin_history_waiting` ON `pin_history` (`user_id`,`pinterest_profile`) WHERE `action` = 'scheduled' AND `posted_at` IS NULL;
