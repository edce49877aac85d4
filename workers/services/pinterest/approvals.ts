import { and, desc, eq, isNull } from "drizzle-orm";
import {
  REVIEW_LINK_INVALID_MESSAGE,
  REVIEWER_INVITE_RESEND_AFTER_MS,
  reviewerInvitePendingMessage,
  reviewerInviteSentMessage,
  type InviteReviewerResponse,
  type ApprovalDecisionView,
  type ApprovalSettingsResponse,
  type ApprovalsResponse,
  type ProfileApprovals,
  type Reviewer,
  type ReviewBody,
  type ReviewQueueResponse,
  type ReviewResult,
} from "../../../contracts/pinterest/approvals.ts";
import type { ReviewOutcome } from "../../../durable-objects/profile-scheduler.ts";
import { randomToken, signToken, verifyToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { approvalDecisions, approvalReviewers, approvalSettings, pinterestProfiles, users } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { sameMailbox } from "../../domain/mailboxes.ts";
import { ProviderError } from "../../integrations/http.ts";
import { tokenSettings, type User } from "../accounts/accounts.ts";
import { reverseCredits } from "../billing/credits.ts";
import { reviewBatchEmail, reviewerInviteEmail, type ReviewedPinLine } from "../accounts/emails.ts";
import { ServiceError } from "../core/errors.ts";
import { listProfiles, schedulingSettingsOf, type PinterestProfile } from "./pinterest-connection.ts";
import { schedulerFor } from "./scheduler-index.ts";
import { ownProfile } from "./scheduling.ts";
import { sendToAccountAddress, sendToTypedAddress } from "../accounts/typed-address-mail.ts";

/** The e-mail provider did not take a reviewer's invite: nothing was kept, so trying again is safe. */
export const REVIEWER_INVITE_NOT_SENT = "We could not send the invitation just now. Please try again in a few minutes.";

/**
 * Post approvals (issue 20, docs/decisions/052-post-approvals.md). The owner turns approval on for one of
 * their profiles and invites reviewers by e-mail; each reviewer gets a signed link (jose, audience
 * "approvalReviewer") naming that reviewer and a random link id, checked against the database on every
 * call, so removing the reviewer revokes the link at once. A reviewer reaches one profile's waiting pins
 * and nothing else. A rejected pin's credit goes back as a ledger reversal, once.
 */

/** How long a reviewer's link works (the owner can remove the reviewer, or invite them again for a new one). */
const REVIEW_LINK_TTL_SECONDS = 180 * 24 * 3600;
const DECISIONS_SHOWN = 50;

export type ReviewerRow = typeof approvalReviewers.$inferSelect;
export interface ReviewerAccess {
  reviewer: ReviewerRow;
  profile: PinterestProfile;
}

// ------------------------------------------------------------------ the owner

/** Every connected profile of the caller with its approval settings, reviewers, waiting pins and latest decisions. */
export async function approvalsOverview(env: Env, user: User): Promise<ApprovalsResponse> {
  const profiles = await listProfiles(env, user.id);
  return { profiles: await Promise.all(profiles.map((profile) => profileApprovals(env, user, profile))) };
}

async function profileApprovals(env: Env, user: User, profile: PinterestProfile): Promise<ProfileApprovals> {
  const db = database(env.DB);
  const [settings, reviewers, decisions, awaitingPins] = await Promise.all([
    db.query.approvalSettings.findFirst({ where: and(eq(approvalSettings.profileId, profile.id), eq(approvalSettings.userId, user.id)) }),
    db.query.approvalReviewers.findMany({
      where: and(eq(approvalReviewers.profileId, profile.id), eq(approvalReviewers.userId, user.id), isNull(approvalReviewers.removedAt)),
      orderBy: approvalReviewers.createdAt,
    }),
    db.query.approvalDecisions.findMany({
      where: and(eq(approvalDecisions.profileId, profile.id), eq(approvalDecisions.userId, user.id)),
      orderBy: desc(approvalDecisions.createdAt),
      limit: DECISIONS_SHOWN,
    }),
    schedulerFor(env, profile.id).awaitingApproval(),
  ]);
  return {
    pinterestProfileUsername: profile.username,
    approvalRequired: settings?.required ?? false,
    reviewers: reviewers.map(reviewerView),
    awaitingPins,
    decisions: decisions.map(
      (row): ApprovalDecisionView => ({
        pinId: row.pinId,
        title: row.title,
        imageURL: row.imageUrl,
        decision: row.decision,
        comment: row.comment,
        reviewerEmail: row.reviewerEmail,
        decidedAt: new Date(row.createdAt).toISOString(),
        decidedAtUTCTimestamp: row.createdAt,
      }),
    ),
  };
}

function reviewerView(row: ReviewerRow): Reviewer {
  return { id: row.id, email: row.email, invitedAt: new Date(row.createdAt).toISOString() };
}

/**
 * Turns approval on or off for one of the caller's profiles. Turning it off releases the waiting pins into
 * the queue as if the owner approved them (late ones at the next free slots).
 */
export async function setApprovalRequired(env: Env, user: User, username: string, required: boolean): Promise<ApprovalSettingsResponse> {
  const profile = await ownProfile(env, user, username, "pinterestProfileUsername");
  const now = Date.now();
  await database(env.DB)
    .insert(approvalSettings)
    .values({ profileId: profile.id, userId: user.id, required, updatedAt: now })
    .onConflictDoUpdate({ target: approvalSettings.profileId, set: { required, updatedAt: now } });
  let releasedCount = 0;
  if (!required)
    releasedCount = (await schedulerFor(env, profile.id).releaseAwaiting(schedulingSettingsOf(profile), profile.status, profile.lastError)).releasedCount;
  return { pinterestProfileUsername: profile.username, approvalRequired: required, releasedCount };
}

/**
 * Invites a reviewer to one of the caller's profiles and e-mails them their signed link, through the gate
 * of mail to typed addresses (decision 080). Inviting an address already invited sends a new link and
 * revokes the old one, but not within a day of the last e-mail: then nothing is sent (sent: false) and the
 * link already on its way keeps working. When the gate refuses or the e-mail fails, nothing is kept: a new
 * reviewer is not added, an old one keeps their link and may be sent one again.
 */
export async function inviteReviewer(env: Env, user: User, username: string, email: string, now = Date.now()): Promise<InviteReviewerResponse> {
  const profile = await ownProfile(env, user, username, "pinterestProfileUsername");
  if (sameMailbox(email, user.email)) throw new ServiceError(400, "Invite someone else: you approve your own pins by scheduling them.", "email");
  const db = database(env.DB);
  const existing = await db.query.approvalReviewers.findFirst({
    where: and(eq(approvalReviewers.profileId, profile.id), eq(approvalReviewers.email, email), isNull(approvalReviewers.removedAt)),
  });
  const pending = (row: ReviewerRow): InviteReviewerResponse => ({
    reviewer: reviewerView(row),
    sent: false,
    inviteSentAt: new Date(row.inviteSentAt).toISOString(),
    message: reviewerInvitePendingMessage(email),
  });
  if (existing && now - existing.inviteSentAt < REVIEWER_INVITE_RESEND_AFTER_MS) return pending(existing);
  const linkId = randomToken(18);
  let row: ReviewerRow;
  if (existing) {
    // Of two invites at once, only the one that moves the time sends.
    const [claimed] = await db
      .update(approvalReviewers)
      .set({ inviteSentAt: now })
      .where(and(eq(approvalReviewers.id, existing.id), eq(approvalReviewers.inviteSentAt, existing.inviteSentAt)))
      .returning();
    if (!claimed) return pending((await db.query.approvalReviewers.findFirst({ where: eq(approvalReviewers.id, existing.id) })) ?? existing);
    row = claimed;
  } else {
    [row] = await db
      .insert(approvalReviewers)
      .values({ id: crypto.randomUUID(), profileId: profile.id, userId: user.id, email, linkId, inviteSentAt: now })
      .returning();
  }
  const token = await signToken(tokenSettings(env), "approvalReviewer", { lid: linkId }, row.id, REVIEW_LINK_TTL_SECONDS);
  const link = new URL(`/post-approvals?review=${encodeURIComponent(token)}`, env.APP_URL).toString();
  try {
    await sendToTypedAddress(env, user, reviewerInviteEmail(email, ownerName(user), profile.username, link));
  } catch (error) {
    if (existing) await db.update(approvalReviewers).set({ inviteSentAt: existing.inviteSentAt }).where(eq(approvalReviewers.id, row.id));
    else await db.delete(approvalReviewers).where(eq(approvalReviewers.id, row.id));
    if (error instanceof ProviderError) throw new ServiceError(502, REVIEWER_INVITE_NOT_SENT);
    throw error;
  }
  // The old link stops working once the new one is on its way.
  if (existing) [row] = await db.update(approvalReviewers).set({ linkId }).where(eq(approvalReviewers.id, row.id)).returning();
  return { reviewer: reviewerView(row), sent: true, inviteSentAt: new Date(now).toISOString(), message: reviewerInviteSentMessage(email) };
}

/** Removes one of the caller's reviewers: their link stops working at once. */
export async function removeReviewer(env: Env, user: User, reviewerId: string): Promise<void> {
  const removed = await database(env.DB)
    .update(approvalReviewers)
    .set({ removedAt: Date.now() })
    .where(and(eq(approvalReviewers.id, reviewerId), eq(approvalReviewers.userId, user.id), isNull(approvalReviewers.removedAt)))
    .returning({ id: approvalReviewers.id });
  if (removed.length === 0) throw new ServiceError(404, "No reviewer with this id.", "reviewerId");
}

function ownerName(user: Pick<User, "firstName" | "lastName" | "email">) {
  return [user.firstName, user.lastName].filter(Boolean).join(" ").trim() || user.email;
}

// ------------------------------------------------------------------ the reviewer

/** The reviewer and profile a signed link names, or null when it is forged, expired, or revoked (reviewer removed, profile gone). */
export async function reviewerFromToken(env: Env, token: string): Promise<ReviewerAccess | null> {
  const claims = await verifyToken(tokenSettings(env), "approvalReviewer", token, REVIEW_LINK_TTL_SECONDS);
  if (!claims || typeof claims.lid !== "string") return null;
  const db = database(env.DB);
  const reviewer = await db.query.approvalReviewers.findFirst({
    where: and(eq(approvalReviewers.id, claims.sub), eq(approvalReviewers.linkId, claims.lid), isNull(approvalReviewers.removedAt)),
  });
  if (!reviewer) return null;
  const profile = await db.query.pinterestProfiles.findFirst({
    where: and(eq(pinterestProfiles.id, reviewer.profileId), eq(pinterestProfiles.userId, reviewer.userId)),
  });
  return profile ? { reviewer, profile } : null;
}

/** reviewerFromToken, refusing (401) a link that does not work. */
export async function requireReviewer(env: Env, token: string | null): Promise<ReviewerAccess> {
  const access = token ? await reviewerFromToken(env, token) : null;
  if (!access) throw new ServiceError(401, REVIEW_LINK_INVALID_MESSAGE);
  return access;
}

/** What the reviewer sees: the profile's pins waiting for approval, nothing else. */
export async function reviewQueue(env: Env, access: ReviewerAccess): Promise<ReviewQueueResponse> {
  const owner = await database(env.DB).query.users.findFirst({ where: eq(users.id, access.reviewer.userId) });
  return {
    pinterestProfileUsername: access.profile.username,
    ownerName: owner ? ownerName(owner) : "The profile's owner",
    reviewerEmail: access.reviewer.email,
    pins: await schedulerFor(env, access.profile.id).awaitingApproval(),
  };
}

/**
 * Applies a reviewer's decisions, each on its own (a pin no longer waiting answers its error alone):
 * approved pins join the queue, rejected ones leave it and their credit is reversed once. Each decision is
 * recorded once (a retried rejection finishes the work of one cut short); the owner gets one e-mail for
 * the decisions of this batch.
 */
export async function submitReview(env: Env, access: ReviewerAccess, decisions: ReviewBody["decisions"]): Promise<ReviewResult[]> {
  const { reviewer, profile } = access;
  const outcomes: ReviewOutcome[] = await schedulerFor(env, profile.id).review(
    decisions.map(({ pinId, decision }) => ({ id: pinId, decision })),
    schedulingSettingsOf(profile),
    profile.status,
    profile.lastError,
  );
  const comments = new Map(decisions.map((d) => [d.pinId, d.comment ?? ""]));
  const batchId = crypto.randomUUID();
  const db = database(env.DB);
  const decided = outcomes.filter((outcome): outcome is Extract<ReviewOutcome, { ok: true }> => outcome.ok);
  const inserted = new Set<string>();
  if (decided.length > 0) {
    const rows = await db
      .insert(approvalDecisions)
      .values(
        decided.map((outcome) => ({
          id: crypto.randomUUID(),
          profileId: profile.id,
          userId: reviewer.userId,
          pinId: outcome.id,
          reviewerId: reviewer.id,
          reviewerEmail: reviewer.email,
          decision: outcome.decision,
          comment: comments.get(outcome.id) ?? "",
          title: outcome.pin.title,
          imageUrl: outcome.pin.imageURL || null,
          scheduledFor: outcome.decision === "approved" ? outcome.scheduledTime : outcome.pin.scheduledTime,
          batchId,
        })),
      )
      .onConflictDoNothing()
      .returning({ pinId: approvalDecisions.pinId });
    for (const row of rows) inserted.add(row.pinId);
  }
  const results: ReviewResult[] = [];
  const lines: ReviewedPinLine[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      results.push({ pinId: outcome.id, ok: false, error: outcome.message });
      continue;
    }
    if (outcome.decision === "approved") {
      const at = outcome.scheduledTime;
      results.push({
        pinId: outcome.id,
        ok: true,
        decision: "approved",
        scheduledTime: new Date(at).toISOString(),
        scheduledTimeUTCTimestamp: at,
        moved: outcome.moved,
      });
      if (inserted.has(outcome.id))
        lines.push({ title: outcome.pin.title, decision: "approved", comment: comments.get(outcome.id) ?? "", moved: outcome.moved, creditsReturned: 0 });
      continue;
    }
    const reversal = await reverseCredits(env, reviewer.userId, `scheduled:${outcome.id}`, "Pin rejected by a reviewer: credit returned");
    results.push({ pinId: outcome.id, ok: true, decision: "rejected", creditsReturned: reversal.amount });
    if (inserted.has(outcome.id))
      lines.push({ title: outcome.pin.title, decision: "rejected", comment: comments.get(outcome.id) ?? "", moved: false, creditsReturned: reversal.amount });
  }
  if (lines.length > 0) await tellOwner(env, access, lines);
  return results;
}

/**
 * The owner's one e-mail for a review batch, when their address is verified (decision 080); a failure to
 * send does not undo the decisions.
 */
async function tellOwner(env: Env, access: ReviewerAccess, lines: ReviewedPinLine[]) {
  const owner = await database(env.DB).query.users.findFirst({ where: eq(users.id, access.reviewer.userId) });
  if (!owner) return;
  try {
    await sendToAccountAddress(
      env,
      owner,
      reviewBatchEmail(owner.email, owner.firstName, access.profile.username, access.reviewer.email, lines, new URL("/post-approvals", env.APP_URL).toString()),
    );
  } catch (error) {
    console.warn(
      `Post approvals: the review e-mail to the owner of profile ${access.profile.id} was not sent:`,
      error instanceof Error ? error.message : error,
    );
  }
}
