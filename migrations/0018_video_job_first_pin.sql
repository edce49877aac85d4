-- Video pins (issue 15, decision 032): the 5 credits charged when a video is made pay for its
-- first scheduled pin. The pin they paid for is kept here, so a retry of that pin is free too
-- and every further pin of the same video is charged as a new video pin.
ALTER TABLE `video_jobs` ADD `first_pin_id` text;
