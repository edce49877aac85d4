import { apiJson } from "./api-client.ts";
import { storedAffiliateId } from "./attribution.ts";

/**
 * After sign-up: the affiliate whose link brought this browser (kept 30 days
 * by attribution.ts) is told to the server, which checks the click it
 * recorded (issue 16). Best effort: sign-up never fails because of it.
 */
export async function recordAffiliateSignUp(): Promise<void> {
  const affiliateID = storedAffiliateId();
  if (!affiliateID) return;
  try {
    await apiJson("/api/affiliate/setUserAffiliateID", { json: { affiliateID } });
  } catch {
    // The server decides attribution; a failed call only loses the attribution.
  }
}
