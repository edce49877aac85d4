ALTER TABLE `pinterest_oauth_states` ADD `browser_hash` text;
