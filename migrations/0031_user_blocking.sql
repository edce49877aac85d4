-- Blocking an account (issue 20, docs/decisions/051-admin-console.md): when an admin blocked it (null: not
-- blocked). A blocked account cannot sign in, its sessions were revoked in the same batch, its bearer tokens
-- are refused, and its profiles' queues pause posting until an admin unblocks it.
ALTER TABLE `users` ADD `blocked_at` integer;
--> statement-breakpoint
CREATE INDEX `users_role` ON `users` (`role`);
