import { useSearchParams } from "@remix-run/react";
import { useAuth } from "../../lib/auth.tsx";
import { SignInPage } from "../shell/login-prompt.tsx";
import { OwnerApprovals } from "./owner-approvals.tsx";
import { ReviewQueue } from "./review-queue.tsx";

/**
 * /post-approvals (spec section 2, decision 052): a reviewer's signed link (?review=) opens that profile's
 * review queue; a signed-in owner sees their approval settings; a logged-out visitor the sign-in prompt.
 */
export function PostApprovalsPage() {
  const [params] = useSearchParams();
  const { user } = useAuth();
  const token = params.get("review");
  if (token) return <ReviewQueue token={token} />;
  if (!user) return <SignInPage title="Post approvals" action="have your pins approved before they are posted" />;
  return <OwnerApprovals />;
}
