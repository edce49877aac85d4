import type {
  ApprovalSettingsResponse,
  ApprovalsResponse,
  InviteReviewerResponse,
  ReviewBody,
  ReviewQueueResponse,
  ReviewResponse,
} from "../../contracts/pinterest/approvals.ts";
import { apiJson, ApiError } from "./api-client.ts";

/** The post approvals calls (/api/approvals, decision 052), as the browser makes them. */

export function fetchApprovals(): Promise<ApprovalsResponse> {
  return apiJson<ApprovalsResponse>("/api/approvals");
}

export function setApprovalRequired(pinterestProfileUsername: string, approvalRequired: boolean): Promise<ApprovalSettingsResponse> {
  return apiJson<ApprovalSettingsResponse>("/api/approvals/settings", { method: "PUT", json: { pinterestProfileUsername, approvalRequired } });
}

export function inviteReviewer(pinterestProfileUsername: string, email: string): Promise<InviteReviewerResponse> {
  return apiJson<InviteReviewerResponse>("/api/approvals/reviewers", { json: { pinterestProfileUsername, email } });
}

export async function removeReviewer(reviewerId: string): Promise<void> {
  await apiJson(`/api/approvals/reviewers/${encodeURIComponent(reviewerId)}`, { method: "DELETE" });
}

/**
 * A reviewer's calls: authorised by the link's token alone (never the visitor's own sign-in, which these
 * calls do not accept), so they go straight to fetch rather than through the signed-in API client.
 */
async function reviewerCall<T>(token: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch("/api/approvals/review", {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.body ? { "content-type": "application/json" } : {}) },
  });
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; field?: string };
  if (!response.ok) throw new ApiError(response.status, body.error ?? "Something went wrong. Please try again.", body.field);
  return body;
}

export function fetchReviewQueue(token: string): Promise<ReviewQueueResponse> {
  return reviewerCall<ReviewQueueResponse>(token);
}

export function sendReview(token: string, decisions: ReviewBody["decisions"]): Promise<ReviewResponse> {
  return reviewerCall<ReviewResponse>(token, { method: "POST", body: JSON.stringify({ decisions }) });
}
