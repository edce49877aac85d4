import { Hono } from "hono";
import { escapeHtml, standalonePage } from "../../html.ts";
import type { SandboxState } from "../../state.ts";
import { completeCheckout } from "./billing.ts";
import { couponDiscount, nowSeconds, stripeState, type CheckoutSession, type StripeState } from "./state.ts";

/**
 * Stripe's hosted checkout page, at a session's `url`: it shows what is being
 * bought, with its discount (the full price struck through, the coupon and
 * the amount charged), and 'pays' with the button (a test card; the second button uses a
 * card that is declined), then redirects to success_url with
 * {CHECKOUT_SESSION_ID} filled in. The cancel link goes to cancel_url.
 */
const CSS = `
  body { font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; background: #f6f9fc; color: #30313d; margin: 0; }
  main { max-width: 440px; margin: 48px auto; background: #fff; border-radius: 8px; padding: 32px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 20px; margin: 0 0 4px; }
  .badge { display: inline-block; font-size: 12px; background: #ffde92; color: #a04100; border-radius: 4px; padding: 2px 6px; margin-bottom: 16px; }
  .amount { font-size: 32px; font-weight: 600; margin: 8px 0; }
  .note { color: #6a7383; font-size: 14px; }
  .was { color: #6a7383; font-size: 20px; font-weight: 400; margin-right: 8px; }
  .discount { color: #1a7f37; font-size: 14px; margin: 4px 0; }
  label { display: block; font-size: 14px; margin: 16px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 10px; border: 1px solid #d5dbe1; border-radius: 6px; font-size: 16px; }
  button { width: 100%; margin-top: 20px; padding: 12px; border: 0; border-radius: 6px; font-size: 16px; background: #635bff; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #635bff; border: 1px solid #635bff; margin-top: 8px; }
  .error { color: #df1b41; margin-top: 16px; }
  a.back { display: inline-block; margin-top: 20px; color: #635bff; }
`;

export function checkoutPages(state: SandboxState) {
  const app = new Hono();

  app.get("/pay/:id", (c) => {
    const stripe = stripeState(state);
    const session = stripe.sessions.get(c.req.param("id"));
    if (!session) return c.html(unavailable("This checkout session does not exist."), 404);
    if (session.status === "complete" && session.success_url) return c.redirect(successUrl(session), 303);
    if (!isPayable(session)) return c.html(unavailable("This checkout session has expired."), 410);
    return c.html(page(stripe, session, null));
  });

  app.post("/pay/:id", async (c) => {
    const stripe = stripeState(state);
    const session = stripe.sessions.get(c.req.param("id"));
    if (!session) return c.html(unavailable("This checkout session does not exist."), 404);
    // Paying twice (a double click) lands on the success page once more, charged once.
    if (session.status === "complete") return c.redirect(successUrl(session), 303);
    if (!isPayable(session)) return c.html(unavailable("This checkout session has expired."), 410);
    const form = await c.req.parseBody();
    const email = typeof form.email === "string" && form.email.trim() ? form.email.trim() : null;
    if (form.card === "declined") return c.html(page(stripe, session, "Your card was declined."), 402);
    completeCheckout({ state, stripe }, session, { email });
    return c.redirect(successUrl(session), 303);
  });

  return app;
}

function isPayable(session: CheckoutSession): boolean {
  if (session.status === "open" && Number(session.expires_at) <= nowSeconds()) session.status = "expired";
  return session.status === "open";
}

function successUrl(session: CheckoutSession): string {
  return (session.success_url ?? "").replaceAll("{CHECKOUT_SESSION_ID}", session.id);
}

function unavailable(message: string): string {
  return standalonePage("Checkout", CSS, `<h1>Checkout</h1><p class="note">${escapeHtml(message)}</p>`);
}

function page(stripe: StripeState, session: CheckoutSession, error: string | null): string {
  const details = stripe.sessionDetails.get(session.id);
  const item = details?.lineItems[0];
  const product = item ? stripe.products.get(item.price.product) : undefined;
  const name = String(product?.name ?? item?.price.nickname ?? "Your purchase");
  const unit = item ? item.price.unit_amount * item.quantity : 0;
  const coupon = details?.discount?.source.coupon ?? null;
  const off = coupon ? couponDiscount(coupon, unit) : 0;
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  // What each period costs: the discounted amount, the full price struck through before it.
  const price = off > 0 ? `<s class="was">${dollars(unit)}</s>${dollars(unit - off)}` : dollars(unit);
  const interval = item?.price.recurring ? ` per ${item.price.recurring.interval}` : "";
  const lasts = !coupon
    ? ""
    : coupon.duration === "forever" || !item?.price.recurring
      ? ""
      : coupon.duration === "once"
        ? ", first payment"
        : `, for ${coupon.duration_in_months} months`;
  const discountNote = coupon && off > 0 ? `<p class="discount">${escapeHtml(coupon.name ?? coupon.id)}: −${dollars(off)}${lasts}</p>` : "";
  const trial = details?.trialPeriodDays ?? null;
  const customer = session.customer ? stripe.customers.get(session.customer) : undefined;
  const email = customer?.email ?? session.customer_email ?? "";
  const action = session.mode === "subscription" ? (trial ? "Start trial" : "Subscribe") : "Pay";
  const body = `
      <span class="badge">TEST MODE</span>
      <h1>${escapeHtml(name)}</h1>
      ${trial ? `<p class="amount">${trial} days free</p><p class="note">Then ${price}${interval}</p>` : `<p class="amount">${price}</p><p class="note">${interval ? `Billed${interval}` : "One-time payment"}</p>`}
      ${discountNote}
      <form method="post" action="${escapeHtml(`/stripe/checkout/pay/${session.id}`)}">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" value="${escapeHtml(email)}" autocomplete="email">
        <label for="card">Card information</label>
        <input id="card" type="text" value="4242 4242 4242 4242" readonly>
        <button type="submit" name="card" value="success">${action}</button>
        <button type="submit" name="card" value="declined" class="secondary">${action} with a declined card</button>
      </form>
      ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
      ${session.cancel_url ? `<a class="back" href="${escapeHtml(session.cancel_url)}">← Back</a>` : ""}`;
  return standalonePage(`Checkout: ${name}`, CSS, body);
}
