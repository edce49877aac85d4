import type { Context } from "hono";
import * as v from "valibot";
import {
  ApprovalSettingsBody,
  InviteReviewerBody,
  REVIEWER_REMOVED_MESSAGE,
  ReviewBody,
  ReviewerIdParam,
  type ApprovalSettingsResponse,
  type ApprovalsResponse,
  type InviteReviewerResponse,
  type ReviewQueueResponse,
  type ReviewResponse,
} from "../../../contracts/pinterest/approvals.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  approvalsOverview,
  inviteReviewer,
  removeReviewer,
  requireReviewer,
  reviewQueue,
  setApprovalRequired,
  submitReview,
} from "../../services/pinterest/approvals.ts";
import { apiError } from "../core/errors.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Post approvals under /api/approvals (docs/decisions/052-post-approvals.md). The owner's calls need the
 * owner signed in; /approvals/review needs a reviewer's signed link token (`Authorization: Bearer`), which
 * no other call accepts.
 */
export const approvalsApi = router();

approvalsApi.get("/approvals", requireUser, async (c) => c.json((await approvalsOverview(c.env, c.var.auth.user)) satisfies ApprovalsResponse));

approvalsApi.put("/approvals/settings", requireUser, valid("json", ApprovalSettingsBody), async (c) => {
  const { pinterestProfileUsername, approvalRequired } = c.req.valid("json");
  return c.json((await setApprovalRequired(c.env, c.var.auth.user, pinterestProfileUsername, approvalRequired)) satisfies ApprovalSettingsResponse);
});

approvalsApi.post("/approvals/reviewers", requireUser, valid("json", InviteReviewerBody), async (c) => {
  const { pinterestProfileUsername, email } = c.req.valid("json");
  const answer = await inviteReviewer(c.env, c.var.auth.user, pinterestProfileUsername, email);
  // 201 when an invite went out, 200 when the one already on its way was left to arrive.
  return c.json(answer satisfies InviteReviewerResponse, answer.sent ? 201 : 200);
});

approvalsApi.delete("/approvals/reviewers/:reviewerId", requireUser, valid("param", ReviewerIdParam), async (c) => {
  await removeReviewer(c.env, c.var.auth.user, c.req.valid("param").reviewerId);
  return c.json({ message: REVIEWER_REMOVED_MESSAGE });
});

/** The reviewer's link token, from `Authorization: Bearer <token>`. */
function reviewToken(c: Context<AppBindings>): string | null {
  return /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? null;
}

approvalsApi.get("/approvals/review", async (c) => {
  const access = await requireReviewer(c.env, reviewToken(c));
  return c.json((await reviewQueue(c.env, access)) satisfies ReviewQueueResponse);
});

approvalsApi.post("/approvals/review", async (c) => {
  // The link is checked before the body is read: a revoked link learns nothing about its input.
  const access = await requireReviewer(c.env, reviewToken(c));
  let input: unknown;
  try {
    input = await c.req.json();
  } catch {
    return apiError(c, 400, "The request body must be valid JSON.");
  }
  const parsed = v.safeParse(ReviewBody, input);
  if (!parsed.success) return apiError(c, 400, parsed.issues[0].message, v.getDotPath(parsed.issues[0]) ?? undefined);
  return c.json({ results: await submitReview(c.env, access, parsed.output.decisions) } satisfies ReviewResponse);
});
