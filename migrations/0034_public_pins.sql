-- Public pins (issue 20, docs/decisions/055-backup-generator-and-public-pins.md): a pin history entry its
-- owner made public has a page at /users/{handle}/{entry id}; NULL means private (the default).
ALTER TABLE `pin_history` ADD `public_at` integer;
