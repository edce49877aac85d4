-- One pin history entry per pin (docs/decisions/024): the entry a scheduled pin got when it was
-- charged also says when it is scheduled for and when it was posted, instead of a second
-- "pinned" entry of 0 credits appearing when the queue posts it.
ALTER TABLE `pin_history` ADD `pin_id` text;--> statement-breakpoint
ALTER TABLE `pin_history` ADD `scheduled_for` integer;--> statement-breakpoint
ALTER TABLE `pin_history` ADD `posted_at` integer;--> statement-breakpoint
-- Entries written by a profile's queue name their pin in their reference.
UPDATE `pin_history` SET `pin_id` = substr(`reference`, 11) WHERE `action` = 'scheduled' AND `reference` LIKE 'scheduled:%';--> statement-breakpoint
UPDATE `pin_history` SET `pin_id` = substr(`reference`, 8) WHERE `action` = 'pinned' AND `reference` LIKE 'pinned:%';--> statement-breakpoint
-- A pinned entry was written when the pin was posted.
UPDATE `pin_history` SET `posted_at` = CAST(round(`created_at`) AS integer) WHERE `action` = 'pinned' AND `posted_at` IS NULL;--> statement-breakpoint
-- The posting of a scheduled pin joins the entry of its scheduling; the second entry goes.
UPDATE `pin_history` SET `posted_at` = `p`.`posted_at`, `pinterest_pin_id` = `p`.`pinterest_pin_id`
  FROM (SELECT `user_id`, `pin_id`, `posted_at`, `pinterest_pin_id` FROM `pin_history` WHERE `action` = 'pinned' AND `reference` LIKE 'pinned:%') AS `p`
  WHERE `pin_history`.`action` = 'scheduled' AND `pin_history`.`user_id` = `p`.`user_id` AND `pin_history`.`pin_id` = `p`.`pin_id`;--> statement-breakpoint
DELETE FROM `pin_history` WHERE `action` = 'pinned' AND `reference` LIKE 'pinned:%'
  AND EXISTS (SELECT 1 FROM `pin_history` AS `s` WHERE `s`.`user_id` = `pin_history`.`user_id` AND `s`.`action` = 'scheduled' AND `s`.`pin_id` = `pin_history`.`pin_id`);--> statement-breakpoint
CREATE INDEX `pin_history_user_pin` ON `pin_history` (`user_id`,`pin_id`);
