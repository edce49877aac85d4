import * as v from "valibot";
import { body, Email, OptionalText } from "../fields.ts";
import type { ScheduledPin } from "./scheduling-api.ts";

/**
 * Post approvals (issue 20, docs/decisions/052-post-approvals.md): calls under /api/approvals. The owner's
 * calls need the owner signed in; the reviewer's (/api/approvals/review) need the reviewer's signed link's
 * token as `Authorization: Bearer <token>`, and reach that one profile's waiting pins only.
 */

/** A reviewer's decisions sent at once. */
export const MAX_REVIEW_BATCH = 100;
export const MAX_REVIEW_COMMENT = 1000;

export const REVIEW_LINK_INVALID_MESSAGE = "This review link is no longer valid. Ask the person who invited you for a new one.";
export const REVIEWER_REMOVED_MESSAGE = "Reviewer removed: their review link no longer works.";

const Username = v.pipe(
  v.string("pinterestProfileUsername is required"),
  v.trim(),
  v.nonEmpty("pinterestProfileUsername is required"),
  v.maxLength(100, "pinterestProfileUsername is too long"),
);
const PinId = v.pipe(v.string("pinId is required"), v.trim(), v.nonEmpty("pinId is required"), v.maxLength(64, "pinId is not a pin id"));

/** PUT /api/approvals/settings */
export const ApprovalSettingsBody = body({
  pinterestProfileUsername: Username,
  approvalRequired: v.boolean("approvalRequired must be true or false"),
});

/** POST /api/approvals/reviewers */
export const InviteReviewerBody = body({
  pinterestProfileUsername: Username,
  email: Email,
});

/** DELETE /api/approvals/reviewers/:reviewerId */
export const ReviewerIdParam = v.object({
  reviewerId: v.pipe(v.string("reviewerId is required"), v.uuid("reviewerId is not a reviewer id")),
});

/** POST /api/approvals/review: one decision or many (a batch), each applied on its own. */
export const ReviewBody = body({
  decisions: v.pipe(
    v.array(
      body({
        pinId: PinId,
        decision: v.picklist(["approve", "reject"], "decision must be approve or reject"),
        comment: OptionalText("comment", MAX_REVIEW_COMMENT),
      }),
      "decisions must be a list",
    ),
    v.minLength(1, "decisions needs at least one pin"),
    v.maxLength(MAX_REVIEW_BATCH, `decisions has at most ${MAX_REVIEW_BATCH} pins`),
    v.check((list) => new Set(list.map((d) => d.pinId)).size === list.length, "decisions names a pin twice"),
  ),
});
export type ReviewBody = v.InferOutput<typeof ReviewBody>;

export interface Reviewer {
  id: string;
  email: string;
  invitedAt: string;
}

export interface ApprovalDecisionView {
  pinId: string;
  title: string;
  imageURL: string | null;
  decision: "approved" | "rejected";
  comment: string;
  reviewerEmail: string;
  decidedAt: string;
  decidedAtUTCTimestamp: number;
}

/** One connected profile's approvals as its owner sees them. */
export interface ProfileApprovals {
  pinterestProfileUsername: string;
  approvalRequired: boolean;
  reviewers: Reviewer[];
  /** Pins waiting for a reviewer, soonest first. */
  awaitingPins: ScheduledPin[];
  /** The latest decisions, newest first. */
  decisions: ApprovalDecisionView[];
}

/** GET /api/approvals */
export interface ApprovalsResponse {
  profiles: ProfileApprovals[];
}

/** PUT /api/approvals/settings: `releasedCount` pins that were waiting joined the queue (approval turned off). */
export interface ApprovalSettingsResponse {
  pinterestProfileUsername: string;
  approvalRequired: boolean;
  releasedCount: number;
}

export interface InviteReviewerResponse {
  reviewer: Reviewer;
  /**
   * False when an invite to this address, still pending, was e-mailed less than a day ago: nothing was
   * sent again (decision 080), and the link already sent keeps working.
   */
  sent: boolean;
  /** ISO: when the invite was last e-mailed. */
  inviteSentAt: string;
  message: string;
}

/** A pending invite is e-mailed again only after this long (decision 080). */
export const REVIEWER_INVITE_RESEND_AFTER_MS = 24 * 60 * 60_000;
export const reviewerInviteSentMessage = (email: string) => `Invitation sent to ${email}.`;
export const reviewerInvitePendingMessage = (email: string) =>
  `An invitation is already on its way to ${email}: it was e-mailed less than a day ago, so it was not sent again.`;

/** GET /api/approvals/review: what a reviewer sees. */
export interface ReviewQueueResponse {
  pinterestProfileUsername: string;
  ownerName: string;
  reviewerEmail: string;
  pins: ScheduledPin[];
}

export type ReviewResult =
  | { pinId: string; ok: true; decision: "approved"; scheduledTime: string; scheduledTimeUTCTimestamp: number; moved: boolean }
  | { pinId: string; ok: true; decision: "rejected"; creditsReturned: number }
  | { pinId: string; ok: false; error: string };

/** POST /api/approvals/review */
export interface ReviewResponse {
  results: ReviewResult[];
}
