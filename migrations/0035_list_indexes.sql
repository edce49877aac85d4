-- Issue 21, target 5 (bench/growth.ts, docs/scale.md): the media library of all types, newest first, read from an
-- index in order instead of sorting the user's whole library (50,000 rows after a year of heavy use) for every page.
CREATE INDEX `user_media_user_created` ON `user_media` (`user_id`,`created_at`);
