-- Trend alerts (issue 19, docs/decisions/047-trend-alerts.md): a user's alerts (keywords, regions,
-- interests, daily or weekly), the periods each alert was evaluated in (one row per alert and period:
-- the unique key a cron run claims before it evaluates and mails, so a doubled or concurrent run mails
-- once), and the digests e-mailed (the page's history).
CREATE TABLE `trend_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`keywords` text NOT NULL,
	`regions` text NOT NULL,
	`interests` text NOT NULL,
	`frequency` text NOT NULL,
	`paused_at` integer,
	`paused_reason` text,
	`last_result` text,
	`memory` text NOT NULL DEFAULT '{}',
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trend_alerts_user` ON `trend_alerts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `trend_alert_runs` (
	`alert_id` text NOT NULL,
	`period` text NOT NULL,
	`claimed_at` integer NOT NULL,
	PRIMARY KEY(`alert_id`, `period`),
	FOREIGN KEY (`alert_id`) REFERENCES `trend_alerts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `trend_alert_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`sent_at` integer NOT NULL,
	`subject` text NOT NULL,
	`findings` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trend_alert_emails_user` ON `trend_alert_emails` (`user_id`,`sent_at`);
