import { TrackingBody, type TrackingResponse } from "../../../contracts/growth/tracking.ts";
import { requestMeta, requireUser } from "../../auth/middleware.ts";
import { ProviderError } from "../../integrations/http.ts";
import { trackMeta, trackTikTok, type TrackedEvent, type TrackingEnv } from "../../services/growth/conversion-tracking.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Conversion tracking (spec section 7; live configuration only). A provider failure never fails the user's action. */
export const tracking = router();

const ROUTES: [string, TrackedEvent, typeof trackMeta][] = [
  ["/facebook/addToCart", "AddToCart", trackMeta],
  ["/facebook/subscribe", "Subscribe", trackMeta],
  ["/facebook/completeRegistration", "CompleteRegistration", trackMeta],
  ["/tiktok/addToCart", "AddToCart", trackTikTok],
  ["/tiktok/subscribe", "Subscribe", trackTikTok],
  ["/tiktok/signup", "CompleteRegistration", trackTikTok],
];

for (const [path, event, track] of ROUTES) {
  tracking.post(path, requireUser, valid("json", TrackingBody), async (c) => {
    const input = c.req.valid("json");
    const meta = requestMeta(c);
    try {
      const result = await track(c.env as TrackingEnv, { event, email: c.var.auth.user.email, ...input, ip: meta.ip, userAgent: meta.userAgent });
      return c.json(result satisfies TrackingResponse);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      console.error(`conversion tracking ${path} failed`, error.message);
      return c.json({ sent: false, reason: "The tracking provider did not accept the event." } satisfies TrackingResponse);
    }
  });
}
