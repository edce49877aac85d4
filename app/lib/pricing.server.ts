import type { AppLoadContext, HeadersFunction } from "@remix-run/cloudflare";
import type { LifetimePlan, PlanInfo } from "../../contracts/billing/plans-api.ts";
import { edgeCountry, pricingParity, type PricingParity } from "../../workers/domain/pricing-parity.ts";
import { lifetimePlans, listPlans } from "../../workers/services/billing/lifetime.ts";

/**
 * The data of the server-rendered price pages (/pricing, /lifetime, /savings-calculator; issue 17):
 * the plans as `GET /api/subscriptions/getPlans` and `getLifetimePlans` give them (the same
 * service), and the visitor's pricing parity from the country the edge saw, read exactly as
 * checkout reads it (`edgeCountry`), so the price in the HTML is the price charged
 * (docs/decisions/041-server-rendered-prices.md).
 */

/**
 * The response header that tells the edge page cache what a page's HTML varies by, besides the
 * signed-in state: `country` (the parity country). Decision 041.
 */
export const PAGE_VARY_HEADER = "x-page-vary";
export const PAGE_VARY_COUNTRY = "country";

/** The visitor's parity when it lowers prices, else null (full price, or the edge did not say where the visitor is). */
export function visitorParity(request: Request, context: AppLoadContext): PricingParity | null {
  const parity = pricingParity(edgeCountry(request, context.cloudflare.env.APP_ENV));
  return parity.percentageAdjustment > 0 ? parity : null;
}

/** Headers of a price page's loader: its HTML varies by the parity country. */
export function priceVaryHeaders(): Headers {
  return new Headers({ [PAGE_VARY_HEADER]: PAGE_VARY_COUNTRY });
}

/** Hands the loader's x-page-vary on to the page's HTML response (Remix sends a document only the headers this returns). */
export const priceHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const vary = loaderHeaders.get(PAGE_VARY_HEADER);
  return vary ? { [PAGE_VARY_HEADER]: vary } : new Headers();
};

export type PlansLoad = { plans: PlanInfo[]; loadError: null } | { plans: null; loadError: string };

/** Every plan, in plan order; a failure is the page's message (the page still renders, without the cards). */
export async function loadPlans(context: AppLoadContext): Promise<PlansLoad> {
  try {
    return { plans: await listPlans(context.cloudflare.env), loadError: null };
  } catch (error) {
    console.error("Could not load the plans", error);
    return { plans: null, loadError: "The plans could not be loaded. Please reload the page." };
  }
}

/** The lifetime plans; spec section 8: a failure to load them is logged only (the page says none is on offer). */
export async function loadLifetimePlans(context: AppLoadContext): Promise<LifetimePlan[]> {
  try {
    return await lifetimePlans(context.cloudflare.env);
  } catch (error) {
    console.error("Could not load the lifetime plans", error);
    return [];
  }
}
