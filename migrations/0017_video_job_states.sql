-- Video jobs (issue 15): queued -> rendering -> done | failed, with progress (0..1)
-- and the finished video's length. "dispatched" (handed to the service) is now "rendering".
ALTER TABLE `video_jobs` ADD `progress` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `video_jobs` ADD `duration_seconds` real;--> statement-breakpoint
UPDATE `video_jobs` SET `status` = 'rendering' WHERE `status` = 'dispatched';
