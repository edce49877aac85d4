import { Hono, type Context } from "hono";
import { blogDemo } from "./blog-demo/app.ts";
import { dnsControl, dnsProvider } from "./providers/dns.ts";
import { hostile } from "./hostile/app.ts";
import { emailControl, emailProvider } from "./providers/email.ts";
import { etsyControl, etsyProvider } from "./providers/etsy/index.ts";
import { googleControl, googleProvider } from "./providers/google.ts";
import { pinterestControl, pinterestProvider } from "./providers/pinterest.ts";
import { openAIControl, openAIProvider } from "./providers/openai.ts";
import { paypalControl, paypalProvider } from "./providers/paypal/index.ts";
import { shopifyControl, shopifyProvider } from "./providers/shopify/index.ts";
import { stripeControl, stripeProvider } from "./providers/stripe.ts";
import { metaProvider, tiktokProvider } from "./providers/tracking.ts";
import { woocommerceControl, woocommerceProvider } from "./providers/woocommerce/index.ts";
import { createState, maskSecrets, resetServices, resetState, takeFault, type Fault, type SandboxState } from "./state.ts";

/**
 * The sandbox: local stand-ins for every third-party service, each under its own
 * path prefix (/email, /pinterest, /stripe ...), plus the demo blog. Every
 * request to a stand-in is recorded and can be made to fail or hang on purpose.
 * Inspection and fault injection live under /__sandbox.
 */
export interface SandboxOptions {
  /**
   * Local services the sandbox forwards to, so calls to them are recorded and
   * can be faulted like a provider's: `{ video: "http://127.0.0.1:8790" }`
   * serves the video service under /video.
   */
  upstreams?: Record<string, string>;
}

export function createSandbox(options: SandboxOptions = {}, state: SandboxState = createState()) {
  const app = new Hono();

  app.route("/__sandbox", controlRoutes(state));
  app.route("/__sandbox/email", emailControl(state));
  app.route("/__sandbox/google", googleControl(state));
  app.route("/__sandbox/pinterest", pinterestControl(state));
  app.route("/__sandbox/openai", openAIControl(state));
  app.route("/__sandbox/stripe", stripeControl(state));
  app.route("/__sandbox/paypal", paypalControl(state));
  app.route("/__sandbox/shopify", shopifyControl(state));
  app.route("/__sandbox/woocommerce", woocommerceControl(state));
  app.route("/__sandbox/etsy", etsyControl(state));
  app.route("/__sandbox/dns", dnsControl(state));

  // Record every request to a stand-in, then apply any fault injected for it.
  app.use("/:service/*", async (c, next) => {
    const service = c.req.param("service");
    const path = servicePath(c, service);
    state.requests.push({
      service,
      method: c.req.method,
      path,
      query: Object.fromEntries(new URL(c.req.url).searchParams),
      headers: maskSecrets(recordedHeaders(c.req.raw.headers)) as Record<string, string>,
      body: maskSecrets(await readBody(c.req.raw.clone())),
      at: new Date().toISOString(),
    });
    const fault = takeFault(state, service, c.req.method, path);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.status) return faultResponse(fault);
    await next();
  });

  app.route("/email", emailProvider(state));
  app.route("/google", googleProvider(state));
  app.route("/pinterest", pinterestProvider(state));
  app.route("/openai", openAIProvider(state));
  app.route("/stripe", stripeProvider(state));
  app.route("/paypal", paypalProvider(state));
  app.route("/shopify", shopifyProvider(state));
  app.route("/woocommerce", woocommerceProvider(state));
  app.route("/etsy", etsyProvider(state));
  app.route("/dns", dnsProvider(state));
  app.route("/meta", metaProvider());
  app.route("/tiktok", tiktokProvider());
  app.route("/blog-demo", blogDemo);
  app.route("/hostile", hostile);
  for (const [service, upstream] of Object.entries(options.upstreams ?? {})) {
    app.all(`/${service}/*`, (c) => forward(c.req.raw, `${upstream}${servicePath(c, service)}${new URL(c.req.url).search}`));
  }

  app.notFound((c) => c.json({ code: 404, message: `The sandbox has no stand-in for ${c.req.method} ${c.req.path}` }, 404));
  return { app, state };
}

function controlRoutes(state: SandboxState) {
  const control = new Hono();
  control.get("/health", (c) => c.json({ status: "ok" }));
  // `?service=email&service=google` forgets only those stand-ins (what tests running side by side need).
  control.post("/reset", (c) => {
    const services = c.req.queries("service");
    if (services?.length) {
      resetServices(state, services);
      return c.json({ status: "reset", services });
    }
    resetState(state);
    return c.json({ status: "reset" });
  });
  control.get("/requests", (c) => {
    const service = c.req.query("service");
    return c.json(service ? state.requests.filter((r) => r.service === service) : state.requests);
  });
  control.get("/outbox", (c) => {
    const to = c.req.query("to")?.toLowerCase();
    return c.json(to ? state.outbox.filter((mail) => mail.to.some((address) => address.toLowerCase() === to)) : state.outbox);
  });
  control.get("/faults", (c) => c.json(state.faults));
  control.delete("/faults", (c) => {
    state.faults.length = 0;
    return c.json({ status: "cleared" });
  });
  control.post("/faults", async (c) => {
    let input: Record<string, unknown>;
    try {
      input = await c.req.json();
    } catch {
      return c.json({ error: "Body must be JSON" }, 400);
    }
    const problem = faultProblem(input);
    if (problem) return c.json({ error: problem }, 400);
    const fault: Fault = {
      service: String(input.service),
      method: typeof input.method === "string" ? input.method.toUpperCase() : undefined,
      path: typeof input.path === "string" ? input.path : undefined,
      status: typeof input.status === "number" ? input.status : undefined,
      delayMs: typeof input.delayMs === "number" ? input.delayMs : undefined,
      body: input.body,
      headers: (input.headers as Record<string, string> | undefined) ?? undefined,
      remaining: typeof input.times === "number" ? input.times : 1,
    };
    state.faults.push(fault);
    return c.json(fault, 201);
  });
  return control;
}

function faultProblem(input: Record<string, unknown>): string | null {
  if (typeof input.service !== "string" || !input.service) return "service is required";
  if (input.method !== undefined && typeof input.method !== "string") return "method must be a string";
  if (input.path !== undefined && (typeof input.path !== "string" || !input.path.startsWith("/"))) return "path must start with /";
  if (input.status === undefined && input.delayMs === undefined) return "status or delayMs is required";
  if (input.status !== undefined && (!Number.isInteger(input.status) || (input.status as number) < 100 || (input.status as number) > 599)) {
    return "status must be an HTTP status between 100 and 599";
  }
  if (input.delayMs !== undefined && (typeof input.delayMs !== "number" || input.delayMs < 0 || input.delayMs > 600_000)) {
    return "delayMs must be between 0 and 600000";
  }
  if (input.times !== undefined && (!Number.isInteger(input.times) || (input.times as number) < 1)) return "times must be a positive integer";
  if (input.headers !== undefined && (typeof input.headers !== "object" || input.headers === null)) return "headers must be an object";
  return null;
}

async function forward(request: Request, target: string) {
  const headers = new Headers(request.headers);
  // Hop-by-hop headers are the proxy's own: the body is re-sent whole, with its own length.
  for (const name of ["host", "transfer-encoding", "connection", "content-length", "keep-alive"]) headers.delete(name);
  try {
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const response = await fetch(target, { method: request.method, headers, body, redirect: "manual" });
    return new Response(response.body, { status: response.status, headers: response.headers });
  } catch (error) {
    return Response.json({ code: 502, message: `The sandbox could not reach ${target}: ${String(error)}` }, { status: 502 });
  }
}

function faultResponse(fault: Fault) {
  const body = fault.body ?? { code: fault.status, message: `Fault injected by the sandbox (${fault.status})` };
  const headers = new Headers(fault.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  if (fault.status === 429 && !headers.has("retry-after")) headers.set("retry-after", "1");
  return new Response(typeof body === "string" ? body : JSON.stringify(body), { status: fault.status, headers });
}

function servicePath(c: Context, service: string) {
  const path = c.req.path.slice(service.length + 1);
  return path === "" ? "/" : path;
}

const RECORDED_HEADERS = ["authorization", "content-type", "user-agent", "idempotency-key", "stripe-version", "x-shopify-access-token", "x-api-key"];

function recordedHeaders(headers: Headers) {
  const recorded: Record<string, string> = {};
  for (const name of RECORDED_HEADERS) {
    const value = headers.get(name);
    if (value !== null) recorded[name] = value;
  }
  return recorded;
}

async function readBody(request: Request): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return null;
  const type = request.headers.get("content-type") ?? "";
  const text = await request.text();
  if (!text) return null;
  if (type.includes("application/json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text.slice(0, 2000);
    }
  }
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  if (type.startsWith("text/")) return text.slice(0, 2000);
  return `<${text.length} bytes of ${type || "unknown type"}>`;
}
