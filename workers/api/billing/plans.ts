import { ActivateLifetimePurchaseBody, PlanChangePreviewQuery, PlanIdParam, RedeemPurchaseCodeBody } from "../../../contracts/billing/plans-api.ts";
import { requestMeta, requireUser } from "../../auth/middleware.ts";
import { activateLifetimePurchase, currentSubscriptionAnswer, getPlan, lifetimePlans, listPlans } from "../../services/billing/lifetime.ts";
import { planChangePreview } from "../../services/billing/plan-change-preview.ts";
import { redeemPurchaseCode } from "../../services/billing/redeem-codes.ts";
import { ServiceError } from "../../services/core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Plans, lifetime purchases and redeeming codes (spec section 7, Subscriptions and payments); admins make codes in admin-redeem-codes.ts. */
export const plansApi = router();

plansApi.get("/subscriptions/getPlans", async (c) => c.json(await listPlans(c.env)));

plansApi.get("/subscriptions/getLifetimePlans", async (c) => c.json(await lifetimePlans(c.env)));

plansApi.get("/subscriptions/getPlan/:id", valid("param", PlanIdParam), async (c) => c.json(await getPlan(c.env, c.req.valid("param").id)));

plansApi.get("/subscriptions/current", requireUser, async (c) => c.json(await currentSubscriptionAnswer(c.env, c.var.auth.user.id)));

plansApi.post("/subscriptions/activateLifetimePurchase", requireUser, valid("json", ActivateLifetimePurchaseBody), async (c) =>
  c.json(await activateLifetimePurchase(c.env, c.var.auth.user, c.req.valid("json"))),
);

plansApi.post("/subscriptions/redeemPurchaseCode", requireUser, valid("json", RedeemPurchaseCodeBody), async (c) =>
  c.json(await redeemPurchaseCode(c.env, c.var.auth.user, c.req.valid("json"), requestMeta(c))),
);

/** What taking a plan (or redeeming a code) would do to the caller's plan and credits, before checkout (decision 082). */
plansApi.get("/subscriptions/planChangePreview", requireUser, valid("query", PlanChangePreviewQuery), async (c) => {
  const { planId, redemptionCode, timeZone } = c.req.valid("query");
  if (planId && redemptionCode) throw new ServiceError(400, "Send planId or redemptionCode, not both", "redemptionCode");
  if (!planId && !redemptionCode) throw new ServiceError(400, "planId is required", "planId");
  const target = redemptionCode ? { via: "code" as const, redemptionCode } : { via: "plan" as const, planId: planId as string };
  return c.json(await planChangePreview(c.env, c.var.auth.user, target, requestMeta(c), timeZone));
});
