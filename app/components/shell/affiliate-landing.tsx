import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { apiJson } from "../../lib/api-client.ts";
import { storeAffiliateId, storedAffiliateId } from "../../lib/attribution.ts";

/**
 * Landing anywhere with ?pgref=ID (spec sections 1 and 9): the affiliate id is
 * kept for 30 days (replacing a referral code) and the click reported once per
 * visitor: not again while this browser keeps the same id. The server counts
 * each visitor once too (decision 035). Renders nothing.
 */
export function AffiliateLanding() {
  const { search } = useLocation();
  useEffect(() => {
    const pgref = new URLSearchParams(search).get("pgref")?.trim();
    if (!pgref || pgref.length > 100) return;
    const known = storedAffiliateId() === pgref;
    storeAffiliateId(pgref);
    if (known) return;
    apiJson("/api/affiliate/incrementAffiliateClicks", { json: { affiliateID: pgref } }).catch(() => {
      // A click that was not counted changes nothing for the visitor.
    });
  }, [search]);
  return null;
}
