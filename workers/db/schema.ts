import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch, set by SQLite when a row is written. */
const createdAt = () =>
  integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

/**
 * Subscription plans (spec section 9). Seeded data, not code paths: prices and
 * credits change by editing workers/db/seed-data.ts and re-running the seed.
 */
export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(), // stable slug, e.g. "starter-monthly"
  name: text("name").notNull(),
  tier: text("tier", { enum: ["free", "starter", "pro", "growth", "agency", "lifetime"] }).notNull(),
  billingPeriod: text("billing_period", { enum: ["none", "month", "year", "once"] }).notNull(),
  price: real("price").notNull(), // USD
  creditsPerMonth: integer("credits_per_month").notNull(),
  freeTrialDays: integer("free_trial_days").notNull(),
  planOrder: integer("plan_order").notNull(),
});

/**
 * Which scheduling Durable Objects have work and when their next alarm is due.
 * Each ProfileScheduler writes its own row; the cron sweep uses it to re-arm
 * alarms that went missing or overdue.
 */
export const schedulerIndex = sqliteTable(
  "scheduler_index",
  {
    profileKey: text("profile_key").primaryKey(),
    nextDueAt: integer("next_due_at"), // ms; null when the queue is empty
    pendingCount: integer("pending_count").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("scheduler_index_next_due").on(t.nextDueAt)],
);

/** Video rendering jobs carried by the video-jobs queue to the FFmpeg service. */
export const videoJobs = sqliteTable(
  "video_jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id"),
    status: text("status", { enum: ["queued", "dispatched", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    payload: text("payload", { mode: "json" }).notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("video_jobs_user").on(t.userId)],
);
