import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalDocumentPage } from "../components/shell/legal-document-page.tsx";
import { PRIVACY_POLICY_PDF } from "../legal/document.ts";
import { PRIVACY_POLICY } from "../legal/privacy-policy.ts";

export const meta: MetaFunction = () => [
  { title: "Privacy policy | Pinboard Studio" },
  { name: "description", content: "What personal data Pinboard Studio collects, why, who processes it, how long we keep it and your rights." },
];

/** /privacy-policy: the policy of app/legal/privacy-policy.ts, which is also public/privacy-policy.pdf. */
export default function PrivacyPolicy() {
  return <LegalDocumentPage document={PRIVACY_POLICY} pdf={{ href: PRIVACY_POLICY_PDF, label: "Download it as a PDF." }} />;
}
