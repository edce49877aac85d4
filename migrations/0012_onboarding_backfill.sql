-- Onboarding steps users did before the features ticked them (issue 13, decision 025).
-- From now on each feature ticks its step when the user does it (workers/services/onboarding.ts).
-- These statements tick, once, what the data shows was done before. verifyEmail follows
-- is_email_verified and is never stored, and inviteFriend left no trace before (copying the
-- invite link was not recorded). Steps already ticked, by hand or by a feature, stay ticked.
UPDATE `users` SET `onboarding_done` = json_insert(`onboarding_done`, '$[#]', 'connectPinterest')
WHERE NOT EXISTS (SELECT 1 FROM json_each(`users`.`onboarding_done`) WHERE `value` = 'connectPinterest')
  AND EXISTS (SELECT 1 FROM `pinterest_profiles` p WHERE p.`user_id` = `users`.`id`);
--> statement-breakpoint
-- Pins are generated in the browser: a saved grid, a downloaded or scheduled pin, or a render shows it.
UPDATE `users` SET `onboarding_done` = json_insert(`onboarding_done`, '$[#]', 'generatePins')
WHERE NOT EXISTS (SELECT 1 FROM json_each(`users`.`onboarding_done`) WHERE `value` = 'generatePins')
  AND (EXISTS (SELECT 1 FROM `drafts` d WHERE d.`user_id` = `users`.`id` AND d.`post_count` > 0)
    OR EXISTS (SELECT 1 FROM `pin_history` h WHERE h.`user_id` = `users`.`id`)
    OR EXISTS (SELECT 1 FROM `pin_renders` r WHERE r.`user_id` = `users`.`id`));
--> statement-breakpoint
UPDATE `users` SET `onboarding_done` = json_insert(`onboarding_done`, '$[#]', 'saveDesignSettings')
WHERE NOT EXISTS (SELECT 1 FROM json_each(`users`.`onboarding_done`) WHERE `value` = 'saveDesignSettings')
  AND EXISTS (SELECT 1 FROM `design_settings_profiles` s WHERE s.`user_id` = `users`.`id`);
--> statement-breakpoint
UPDATE `users` SET `onboarding_done` = json_insert(`onboarding_done`, '$[#]', 'createTemplate')
WHERE NOT EXISTS (SELECT 1 FROM json_each(`users`.`onboarding_done`) WHERE `value` = 'createTemplate')
  AND EXISTS (SELECT 1 FROM `templates` t WHERE t.`owner_id` = `users`.`id`);
--> statement-breakpoint
UPDATE `users` SET `onboarding_done` = json_insert(`onboarding_done`, '$[#]', 'schedulePins')
WHERE NOT EXISTS (SELECT 1 FROM json_each(`users`.`onboarding_done`) WHERE `value` = 'schedulePins')
  AND EXISTS (SELECT 1 FROM `pin_history` h WHERE h.`user_id` = `users`.`id` AND h.`action` IN ('scheduled', 'pinned'));
--> statement-breakpoint
-- A profile gets the default settings of spec section 9 when connected: settings that differ were set by the user.
UPDATE `users` SET `onboarding_done` = json_insert(`onboarding_done`, '$[#]', 'setPostingSchedule')
WHERE NOT EXISTS (SELECT 1 FROM json_each(`users`.`onboarding_done`) WHERE `value` = 'setPostingSchedule')
  AND EXISTS (
    SELECT 1 FROM `pinterest_profiles` p WHERE p.`user_id` = `users`.`id` AND p.`scheduling_settings` IS NOT NULL AND (
      json_extract(p.`scheduling_settings`, '$.numberOfPinsPerDay') IS NOT 20
      OR json_extract(p.`scheduling_settings`, '$.windowOneTimes') IS NOT '[72000,82800]'
      OR json_extract(p.`scheduling_settings`, '$.windowTwoTimes') IS NOT '[7200,14400]'
      OR json_extract(p.`scheduling_settings`, '$.timezone.value') IS NOT 'Etc/GMT'
      OR json_extract(p.`scheduling_settings`, '$.timeSlots') IS NOT 20
      OR json_extract(p.`scheduling_settings`, '$.postingIntervalInSeconds') IS NOT 900
    )
  );
