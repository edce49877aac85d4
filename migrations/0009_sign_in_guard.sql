ALTER TABLE `refresh_tokens` ADD `successor_hash` text;--> statement-breakpoint
ALTER TABLE `refresh_tokens` ADD `successor_sealed` text;
