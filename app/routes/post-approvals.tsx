import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import approvalStyles from "../components/approvals/approvals.css?url";
import { PostApprovalsPage } from "../components/approvals/post-approvals-page.tsx";
import schedulingStyles from "../components/scheduling/scheduling.css?url";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: schedulingStyles },
  { rel: "stylesheet", href: approvalStyles },
];
export const meta: MetaFunction = () => [
  { title: "Post approvals | Pinboard Studio" },
  // A reviewer's link carries its token: it must never leave in a Referer header (pin images, pin links).
  { name: "referrer", content: "no-referrer" },
  { name: "robots", content: "noindex" },
];

/** /post-approvals: pins approved by a client before they are posted (issue 20). */
export default PostApprovalsPage;
