import { IncrementCreditsBody, PinHistoryBody } from "../../../contracts/billing/credits.ts";
import { requireUser } from "../../auth/middleware.ts";
import { addPinHistory, consumeCredits, creditCost, creditsSummary, usedCreditsThisMonth } from "../../services/billing/credits.ts";
import { router } from "../core/hono.ts";
import { once, valid } from "../core/validation.ts";

/**
 * Credit consumption and pin history (spec section 7, Account), and this
 * month's balance. The server decides what each category costs; a request
 * with an idempotency key (`reference` or the Idempotency-Key header) is
 * charged once and a replay answers the first result. A spend the balance
 * cannot pay answers 402 with {error, upgradeUrl} and does nothing. Mounted
 * before the account router so that /user/credits is not taken for a handle.
 */
export const credits = router();

credits.get("/user/credits", requireUser, async (c) => c.json(await creditsSummary(c.env, c.var.auth.user.id)));

credits.post("/user/incrementUsedPinCredits", requireUser, valid("json", IncrementCreditsBody), async (c) => {
  const input = c.req.valid("json");
  const amount = creditCost(input.category, input.creditAmount, "creditAmount");
  const user = c.var.auth.user;
  return c.json(
    await once(c, "incrementUsedPinCredits", input, async (reference) => {
      const { charged } = await consumeCredits(c.env, user.id, { category: input.category, amount, reason: "Pin credits", reference });
      return { charged, creditsCharged: charged ? amount : 0, usedPinCredits: await usedCreditsThisMonth(c.env, user.id) };
    }),
  );
});

credits.post("/scraping/addPinHistoryAndAdjustCredits", requireUser, valid("json", PinHistoryBody), async (c) => {
  const input = c.req.valid("json");
  const { pinDetails, category } = input;
  const amount = creditCost(category, input.numCreditsToConsume, "numCreditsToConsume");
  const user = c.var.auth.user;
  const reason = pinDetails.action === "downloaded" ? "Pin download" : pinDetails.action === "scheduled" ? "Pin scheduled" : "Pin posted";
  return c.json(
    await once(c, "addPinHistoryAndAdjustCredits", input, async (reference) => {
      const result = await addPinHistory(c.env, user.id, pinDetails, { category, amount, reason, reference });
      return { ...result, creditsCharged: result.charged ? amount : 0, usedPinCredits: await usedCreditsThisMonth(c.env, user.id) };
    }),
  );
});
