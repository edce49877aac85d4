import { IncrementCreditsBody, PinHistoryBody } from "../../contracts/credits.ts";
import { requireUser } from "../auth/middleware.ts";
import { addPinHistory, consumeCredits, creditsSummary, usedCreditsThisMonth } from "../services/credits.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/**
 * Credit consumption and pin history (spec section 7, Account), and this
 * month's balance. A spend the balance cannot pay answers 402 with
 * {error, upgradeUrl} and does nothing. Mounted before the account router so
 * that /user/credits is not taken for a handle.
 */
export const credits = router();

credits.get("/user/credits", requireUser, async (c) => c.json(await creditsSummary(c.env, c.var.auth.user.id)));

credits.post("/user/incrementUsedPinCredits", requireUser, valid("json", IncrementCreditsBody), async (c) => {
  const { creditAmount, category, reference } = c.req.valid("json");
  const user = c.var.auth.user;
  const { charged } = await consumeCredits(c.env, user.id, { category, amount: creditAmount, reason: "Pin credits", reference });
  return c.json({ charged, usedPinCredits: await usedCreditsThisMonth(c.env, user.id) });
});

credits.post("/scraping/addPinHistoryAndAdjustCredits", requireUser, valid("json", PinHistoryBody), async (c) => {
  const { pinDetails, numCreditsToConsume, category, reference } = c.req.valid("json");
  const user = c.var.auth.user;
  const reason = pinDetails.action === "downloaded" ? "Pin download" : pinDetails.action === "scheduled" ? "Pin scheduled" : "Pin posted";
  const result = await addPinHistory(c.env, user.id, pinDetails, { category, amount: numCreditsToConsume, reason, reference });
  return c.json({ ...result, usedPinCredits: await usedCreditsThisMonth(c.env, user.id) });
});
