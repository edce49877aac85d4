import { RecordReferralBody, ReferralCodeParam, SendReferralInviteBody } from "../../../contracts/growth/referrals.ts";
import { requireUser } from "../../auth/middleware.ts";
import { recordReferral, referralProfile, sendReferralInvite } from "../../services/growth/referrals.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** The referral programme (spec section 7, Referral): codes, the public referral profile, gift invites, claims. */
export const referralsApi = router();

referralsApi.get("/referrals/getReferralCode", requireUser, (c) => c.json({ referralCode: c.var.auth.user.referralCode }));

// Public: the /referral page shows who invited the visitor before they sign in.
referralsApi.get("/referrals/getReferralProfile/:code", valid("param", ReferralCodeParam), async (c) =>
  c.json(await referralProfile(c.env, c.req.valid("param").code)),
);

referralsApi.post("/referrals/sendReferralInvite", requireUser, valid("json", SendReferralInviteBody), async (c) =>
  c.json(await sendReferralInvite(c.env, c.var.auth.user, c.req.valid("json"))),
);

referralsApi.post("/referrals/recordReferral", requireUser, valid("json", RecordReferralBody), async (c) =>
  c.json(await recordReferral(c.env, c.var.auth.user, c.req.valid("json"))),
);
