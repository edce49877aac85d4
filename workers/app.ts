import { ProfileScheduler } from "../durable-objects/profile-scheduler.ts";
import { UserLedger } from "../durable-objects/user-ledger.ts";
import { VideoContainer } from "../durable-objects/video-container.ts";
import type { Env } from "./env.ts";
import { handleDeadVideoJobs, handleVideoJobs, VIDEO_JOBS_DEAD_LETTER_QUEUE } from "./queues/video-jobs.ts";
import { app } from "./router.ts";
import { sendPendingBillingEmails } from "./services/billing/billing-emails.ts";
import { sweepLedgerMoves } from "./ledger/sweep.ts";
import { purgeExpiredRateLimits } from "./services/accounts/rate-limit.ts";
import { pruneGrowingTables } from "./services/core/table-retention.ts";
import { refreshExpiringTokens } from "./services/pinterest/pinterest-connection.ts";
import { recordClaimedMailboxes } from "./services/growth/referrals.ts";
import { sweepRssFeeds } from "./services/pinterest/rss-checks.ts";
import { sweepStalledSchedulers } from "./services/pinterest/scheduler-index.ts";
import { sweepShopifyAdjustments, sweepShopifyCharges } from "./services/billing/shopify-billing.ts";
import { sweepTrendAlerts } from "./services/growth/trend-alerts.ts";
import { sendWeeklySummaries } from "./services/pinterest/analytics.ts";

export { ProfileScheduler, UserLedger, VideoContainer };

export default {
  fetch: app.fetch,

  async queue(batch, env) {
    if (batch.queue === VIDEO_JOBS_DEAD_LETTER_QUEUE) await handleDeadVideoJobs(batch, env);
    else await handleVideoJobs(batch, env);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(
      sweepStalledSchedulers(env, controller.scheduledTime).then((rearmed) => {
        if (rearmed.length > 0) console.log(`cron: re-armed ${rearmed.length} scheduler alarm(s)`);
      }),
    );
    ctx.waitUntil(
      refreshExpiringTokens(env, controller.scheduledTime).then(({ refreshed, failed }) => {
        if (refreshed + failed > 0) console.log(`cron: renewed ${refreshed} Pinterest token(s), ${failed} failed`);
      }),
    );
    ctx.waitUntil(
      sweepShopifyCharges(env, controller.scheduledTime).then(({ checked, failed }) => {
        if (checked > 0) console.log(`cron: re-read ${checked} Shopify charge(s), ${failed} failed`);
      }),
    );
    ctx.waitUntil(
      sweepShopifyAdjustments(env, controller.scheduledTime).then(
        ({ applied, failed }) => {
          if (applied + failed > 0) console.log(`cron: applied ${applied} Shopify refund(s), ${failed} failed`);
        },
        (error: unknown) => console.warn("cron: the Shopify Partner API could not be read", String(error)),
      ),
    );
    ctx.waitUntil(
      sendPendingBillingEmails(env, controller.scheduledTime).then(({ sent, failed }) => {
        if (sent + failed > 0) console.log(`cron: sent ${sent} billing e-mail(s) that could not go at once, ${failed} failed again`);
      }),
    );
    ctx.waitUntil(
      Promise.all([
        sweepLedgerMoves(env),
        purgeExpiredRateLimits(env.DB, controller.scheduledTime),
        pruneGrowingTables(env, controller.scheduledTime),
        recordClaimedMailboxes(env, controller.scheduledTime),
      ]).then(([moves, limits, pruned, mailboxes]) => {
        if (moves.moved + moves.failed > 0) console.log(`cron: moved the records of ${moves.moved} user(s) to their ledgers, ${moves.failed} failed`);
        if (limits > 0) console.log(`cron: forgot ${limits} expired rate-limit window(s)`);
        const forgotten = Object.entries(pruned).filter(([, n]) => n > 0);
        if (forgotten.length > 0) console.log(`cron: forgot ${forgotten.map(([table, n]) => `${n} row(s) of ${table}`).join(", ")}`);
        if (mailboxes > 0) console.log(`cron: recorded the mailboxes of ${mailboxes} free month claim(s) made before the one-per-mailbox rule`);
      }),
    );
    ctx.waitUntil(
      sweepTrendAlerts(env, controller.scheduledTime).then(({ checked, emailed, failed }) => {
        if (checked > 0) console.log(`cron: checked ${checked} trend alert(s), e-mailed ${emailed} digest(s), ${failed} failed`);
      }),
    );
    ctx.waitUntil(
      sendWeeklySummaries(env, controller.scheduledTime).then(({ sent, skipped }) => {
        if (sent + skipped > 0) console.log(`cron: sent ${sent} weekly insights summary e-mail(s), ${skipped} without figures or failed`);
      }),
    );
    // Awaited rather than left to waitUntil: drawing a feed's pins takes tens of seconds, longer than
    // work left behind a finished event is allowed to run (decision 044).
    try {
      const { checked, added, paused } = await sweepRssFeeds(env, controller.scheduledTime);
      if (checked > 0) console.log(`cron: checked ${checked} RSS feed(s), ${added} new pin(s), ${paused} paused for credits`);
    } catch (error) {
      console.error("cron: the RSS feed sweep failed", error);
    }
  },
} satisfies ExportedHandler<Env>;
