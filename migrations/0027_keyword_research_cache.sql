-- Keyword research answers (issue 19, docs/decisions/045-keyword-research.md), kept 24 hours per term and
-- region so that repeated searches stay inside Pinterest's rate limits. Not user data: an answer is the
-- same for everyone who asks; expired rows are ignored by reads and deleted by the next write.
CREATE TABLE `keyword_research_cache` (
	`term_key` text NOT NULL,
	`region` text NOT NULL,
	`answer` text NOT NULL,
	`fetched_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`term_key`, `region`)
);
--> statement-breakpoint
CREATE INDEX `keyword_research_cache_expiry` ON `keyword_research_cache` (`expires_at`);
