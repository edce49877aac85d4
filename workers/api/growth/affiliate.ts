import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { Hono } from "hono";
import {
  CreateAffiliateProfileBody,
  IncrementAffiliateClicksBody,
  MarkAffiliatePayoutPaidBody,
  RecordAffiliateSaleBody,
  SaveWiseTagBody,
  SetUserAffiliateIdBody,
} from "../../../contracts/growth/affiliate.ts";
import { adminOnly, requestMeta, requireUser } from "../../auth/middleware.ts";
import {
  ADMINS_ONLY,
  affiliateData,
  affiliatePayoutReport,
  attributeCustomer,
  countAffiliateClick,
  createAffiliateProfile,
  markAffiliatePayoutPaid,
  recordAffiliateSale,
  saveWiseTag,
} from "../../services/growth/affiliates.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * The affiliate programme (spec section 7, Referral, affiliate; issue 16;
 * docs/decisions/035 and 036), its admin payout report, and the pgref
 * redirects of spec section 1.
 */
export const affiliateApi = router();

/**
 * Who a visitor is, for counting a click once and finding it again at sign-up
 * (decision 035): a first-party cookie holding a key; a browser that sends
 * none gets SHA-256(ip, user agent, UTC day) as its key, and that key as its
 * cookie, so a browser without cookies still counts once a day.
 */
export const VISITOR_COOKIE = "pb_visitor";
const VISITOR_TTL_SECONDS = 90 * 24 * 60 * 60;
const VISITOR_KEY = /^[a-f0-9]{64}$/;

export async function visitorKeyOf(c: Context, remember = false): Promise<string> {
  const cookie = getCookie(c, VISITOR_COOKIE);
  if (cookie && VISITOR_KEY.test(cookie)) return cookie;
  const { ip, userAgent } = requestMeta(c);
  const day = new Date().toISOString().slice(0, 10);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${ip ?? ""}\n${userAgent ?? ""}\n${day}`));
  const key = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  if (remember) setCookie(c, VISITOR_COOKIE, key, { httpOnly: true, secure: true, sameSite: "Lax", path: "/api/", maxAge: VISITOR_TTL_SECONDS });
  return key;
}

affiliateApi.post("/affiliate/incrementAffiliateClicks", valid("json", IncrementAffiliateClicksBody), async (c) => {
  const { ip, userAgent } = requestMeta(c);
  await countAffiliateClick(c.env, { affiliateID: c.req.valid("json").affiliateID, visitorKey: await visitorKeyOf(c, true), ip, userAgent });
  // The same answer whether the click counted, repeated, came from a bot or named no affiliate.
  return c.json({ received: true });
});

affiliateApi.post("/affiliate/setUserAffiliateID", requireUser, valid("json", SetUserAffiliateIdBody), async (c) => {
  const attributed = await attributeCustomer(c.env, c.var.auth.user.id, {
    affiliateID: c.req.valid("json").affiliateID,
    visitorKey: await visitorKeyOf(c),
    source: "signup",
  });
  return c.json({ attributed });
});

affiliateApi.post("/affiliate/recordAffiliateSale", requireUser, valid("json", RecordAffiliateSaleBody), async (c) =>
  c.json(await recordAffiliateSale(c.env, c.var.auth.user, c.req.valid("json"))),
);

affiliateApi.get("/affiliate/getAffiliateData", requireUser, async (c) => c.json(await affiliateData(c.env, c.var.auth.user)));

affiliateApi.post("/affiliate/createAffiliateProfile", requireUser, valid("json", CreateAffiliateProfileBody), async (c) =>
  c.json(await createAffiliateProfile(c.env, c.var.auth.user, c.req.valid("json"))),
);

affiliateApi.post("/affiliate/saveWiseTag", requireUser, valid("json", SaveWiseTagBody), async (c) =>
  c.json(await saveWiseTag(c.env, c.var.auth.user, c.req.valid("json").wiseTag)),
);

const payoutAdmins = adminOnly(ADMINS_ONLY);

affiliateApi.get("/admin/affiliatePayouts", requireUser, payoutAdmins, async (c) => c.json(await affiliatePayoutReport(c.env, c.var.auth.user)));

affiliateApi.post("/admin/affiliatePayouts/markPaid", requireUser, payoutAdmins, valid("json", MarkAffiliatePayoutPaidBody), async (c) =>
  c.json(await markAffiliatePayoutPaid(c.env, c.var.auth.user, c.req.valid("json"))),
);

/** Links to home with a pgref (spec section 1, Redirects): answered before any page, so never the 404 page. */
export const affiliateRedirects = new Hono<AppBindings>();

const toHome = (c: Context, pgref: string | undefined) => c.redirect(pgref ? `/?pgref=${encodeURIComponent(pgref)}` : "/", 302);

affiliateRedirects.get("/spm", (c) => toHome(c, "convertkit"));
affiliateRedirects.get("/earn", (c) => toHome(c, "earnyourhappy"));
affiliateRedirects.get("/influencer", (c) => toHome(c, c.req.query("name")?.trim() || undefined));
affiliateRedirects.get("/influencer/:name", (c) => toHome(c, c.req.param("name").trim() || undefined));
