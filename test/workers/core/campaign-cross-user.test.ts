import { PhotonImage } from "@cf-wasm/photon/workerd";
import { runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { PAYPAL_PLAN_IDS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { PLAN_ROWS } from "../../../workers/db/seed-data.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { app as router } from "../../../workers/router.ts";
import { schedulerFor } from "../../../workers/services/pinterest/scheduler-index.ts";
import { userMediaPrefix } from "../../../workers/media/store.ts";
import pacificoWoff2Url from "../../fixtures/fonts/pacifico-latin-400.woff2?inline";
import tinyMp4Url from "../../fixtures/video/tiny.mp4?inline";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { approvePayPal, newShop, payHostedCheckout, sandboxSubscription, subscribe, subscribeShopify } from "../billing/billing-support.ts";
import { connectEtsyShop, etsyAccount, etsyShopName } from "../shops/etsy-support.ts";
import {
  fieldPaths,
  fillPath,
  NOT_USER_OWNED,
  ROUTES,
  servedRoutes,
  withField,
  type OwnedSlot,
  type ResourceKind,
  type RouteExample,
} from "./campaign-routes.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, type ConnectedProfile } from "../pinterest/scheduling-support.ts";
import { connectStore } from "../shops/shopify-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";
import { connectWooCommerceStore, newStore } from "../shops/woocommerce-support.ts";

/**
 * Issue 12: cross-user access, every resource, generated from the route table
 * (campaign-routes.ts). Two users, A and B, each own one real resource of
 * every kind the table names. For every route that takes a user's resource
 * (`owns`), B sends the route's example request as A would send it (A's
 * resources in its slots), and for each further slot (`alsoOwns`) the request
 * with A's resource there and B's own in the others, signed in as B. The
 * answer must be a refusal (403/404, or 400/401 naming that slot), or a 2xx;
 * no answer may show anything of A's; and after each request A's data (every
 * D1 row of A's, the scheduler queues, R2 objects, and what the payment and
 * Pinterest stand-ins hold) must be unchanged. Every `listsOwn` route, read
 * by B, shows nothing of A's. Last, B sends every one of those requests with
 * its own resources: they must be accepted, so each refusal above was about
 * whose the resource is, not about a malformed request.
 */

const TAG = crypto.randomUUID().slice(0, 8);
const DAY = 86_400_000;

/** Resources reached through the routes of another kind: a font is a media item (mediaType font), listed and deleted as media. */
const REACHED_THROUGH: Partial<Record<ResourceKind, ResourceKind[]>> = { media: ["font"] };

/** What looks like a resource id in a body field or query parameter (path parameters always do). */
const ID_LIKE = /^(id|uid)$|Id$|ID$|_id$|[Uu]sername$|[Hh]andle$|[Tt]oken$|Set$|^reference$|[Ss]ession/;

interface Owned {
  /** The values the resource is known by: its id, and for some a name or a refresh handle (OwnedSlot.by). */
  values: Partial<Record<NonNullable<OwnedSlot["by"]>, string>>;
  /** Text identifying it, that must never appear in another user's answers. */
  marks: string[];
}

interface Party {
  label: string;
  user: TestUser;
  /** The user's WordPress access key, for the routes authenticated by it (RouteExample.wordpressKey). */
  wordpressKey: string;
  profile: ConnectedProfile;
  resources: Record<ResourceKind, Owned>;
  /** Everything identifying this user and their things. */
  marks: string[];
  /** The Shopify store the user's charge is for. */
  shop: string;
}

/** A party being built: creators run in the order of CREATE, so later ones may use what earlier ones made. */
interface Builder {
  label: string;
  user: TestUser;
  profile?: ConnectedProfile;
  shop?: string;
  /** The item of the party's catalog (made with the catalog). */
  catalogItemId?: string;
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** A unique text naming one of this user's things. */
  mark(what: string): string;
  /** Sends a request as this user and answers its JSON, failing unless it has `status`. */
  // biome-ignore lint/suspicious/noExplicitAny: the campaign reads whatever each API answers, loosely typed for assertions.
  ok(status: number, path: string, body?: unknown, method?: string): Promise<any>;
}

const fromDataUrl = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

function tinyPng(): Uint8Array {
  const image = new PhotonImage(new Uint8Array(8 * 8 * 4).fill(180), 8, 8);
  try {
    return image.get_bytes();
  } finally {
    image.free();
  }
}

async function uploadMedia(p: Builder, bytes: Uint8Array, fileName: string, mediaType: string) {
  const form = new FormData();
  form.set("file", new File([bytes.slice()], fileName));
  form.set("mediaType", mediaType);
  const response = await app("/api/user/media/uploadMedia", { method: "POST", headers: bearer(p.user.tokens), body: form });
  if (response.status !== 201) throw new Error(`uploading ${fileName} answered ${response.status}: ${await response.text()}`);
  return (await read(response)).media as { id: string; fileName: string; url: string };
}

const profileOf = (p: Builder) => {
  if (!p.profile) throw new Error("the Pinterest profile is made before what needs it");
  return p.profile;
};

/** How each kind of resource is made, through the API as the browser makes it. A kind without a creator does not compile. */
const CREATE: Record<ResourceKind, (p: Builder) => Promise<Owned>> = {
  async template(p) {
    const title = p.mark("template");
    const { template } = await p.ok(201, "/api/templates/addNewTemplate", { template: { title, background: "#ffffff", layers: [], categories: [] } });
    return { values: { id: template.templateId }, marks: [template.templateId, title] };
  },
  async category(p) {
    const name = p.mark("category");
    const { category } = await p.ok(201, "/api/templates/categories/addTemplateCategory", { name });
    return { values: { id: category.id }, marks: [category.id, name] };
  },
  async draft(p) {
    const name = p.mark("draft");
    const title = p.mark("draft post");
    const { draft } = await p.ok(201, "/api/user/drafts/createDraft", {
      posts: [{ id: "post-1", title, url: "https://linen.example/napkins", allImages: [] }],
      name,
      date: "24/11/2026",
    });
    return { values: { id: draft.draftId }, marks: [draft.draftId, name, title] };
  },
  async designProfile(p) {
    const name = p.mark("design");
    const saved = await p.ok(200, "/api/user/saveDesignSettings", { designSettings: {}, newProfileName: name });
    return { values: { id: saved.profileId, name }, marks: [saved.profileId, name] };
  },
  async media(p) {
    const media = await uploadMedia(p, tinyPng(), `${p.mark("picture").replaceAll(" ", "-")}.png`, "image");
    return { values: { id: media.id, url: media.url }, marks: [media.id, media.fileName] };
  },
  async video(p) {
    const video = await uploadMedia(p, fromDataUrl(tinyMp4Url), `${p.mark("video").replaceAll(" ", "-")}.mp4`, "video");
    return { values: { id: video.id, url: video.url }, marks: [video.id, video.fileName] };
  },
  async font(p) {
    const font = await uploadMedia(p, fromDataUrl(pacificoWoff2Url), `${p.mark("font").replaceAll(" ", "-")}.woff2`, "font");
    return { values: { id: font.id, url: font.url }, marks: [font.id, font.fileName] };
  },
  async pinterestProfile(p) {
    p.profile = await connectProfile(p.user, pinterestName(`xu${p.label.toLowerCase()}`));
    return {
      values: { id: p.profile.username },
      marks: [p.profile.username, p.profile.profileId, ...p.profile.boards.map((board) => board.id).filter((id) => id.length >= 10)],
    };
  },
  async pinterestHandle(p) {
    const handles = await p.ok(200, "/api/pinterestAPI/activatePinterestProfile", { username: profileOf(p).username });
    return { values: { id: handles.authToken, refresh: handles.refreshToken }, marks: [handles.authToken, handles.refreshToken] };
  },
  async scheduledPin(p) {
    const title = p.mark("pin");
    const { scheduledPin } = await p.ok(201, "/api/scheduling/schedulePin", imagePin(profileOf(p), { title }));
    return { values: { id: scheduledPin.id }, marks: [scheduledPin.id, title] };
  },
  async pinHistoryEntry(p) {
    const title = p.mark("history entry");
    await p.ok(201, "/api/scheduling/schedulePin", imagePin(profileOf(p), { title }));
    const { pinHistory } = await p.ok(200, "/api/user/getPinHistory", { startAtDate: null });
    const entry = pinHistory.find((item: { title: string }) => item.title === title);
    return { values: { id: entry.id }, marks: [entry.id, title] };
  },
  async pinHistoryArchive(p) {
    // An entry 15 months old, archived by the ledger's alarm (decision 084): its month names the archive.
    const title = p.mark("archived entry");
    const createdAt = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 15, 10);
    const month = new Date(createdAt).toISOString().slice(0, 7);
    await ledgerOf(testEnv, p.user.userId)
      .prepare(
        `INSERT INTO pin_history (id, user_id, action, category, credits, title, url, image_url, reference, created_at)
         VALUES (?1, ?2, 'downloaded', 'image', 1, ?3, 'https://example.com/post', 'https://example.com/a.jpg', ?4, ?5)`,
      )
      .bind(`archived-${p.user.userId}`, p.user.userId, title, `archived:${title}`, createdAt)
      .run();
    const stub = testEnv.USER_LEDGER.get(testEnv.USER_LEDGER.idFromName(p.user.userId));
    for (let tries = 0; (await testEnv.MEDIA.head(`archives/${p.user.userId}/pin-history/${month}.ndjson.gz`)) === null; tries++) {
      if (tries > 50) throw new Error(`the history of ${month} was not archived`);
      await runDurableObjectAlarm(stub);
    }
    return { values: { id: month }, marks: [title] };
  },
  async repeatingPin(p) {
    const title = p.mark("repeating pin");
    const pin = imagePin(profileOf(p), { title, type: "SpecificDate", scheduledTime: new Date(Date.now() + 3 * DAY).toISOString(), repeatIntervalInDays: 7 });
    const { scheduledPin, repeatingPins } = await p.ok(201, "/api/scheduling/schedulePin", pin);
    return { values: { id: repeatingPins[0].id }, marks: [repeatingPins[0].id, scheduledPin.id, title] };
  },
  async subscription(p) {
    const { paymentDetails } = await p.once("stripe", () => subscribe(p.user, "starter-monthly"));
    return { values: { id: paymentDetails.subscriptionID! }, marks: [paymentDetails.subscriptionID!] };
  },
  async stripeSession(p) {
    const { sessionId } = await p.once("stripe", () => subscribe(p.user, "starter-monthly"));
    return { values: { id: sessionId }, marks: [sessionId] };
  },
  async lifetimeSession(p) {
    const { redirectUrl } = await p.ok(200, "/api/stripeSubscriptions/startStripeOnceOffPayment", {
      stripePriceID: priceOf("lifetime"),
      planId: "lifetime",
      returnUrl: "/lifetime",
    });
    const paid = await payHostedCheckout(redirectUrl);
    const sessionId = new URL(paid.location!).searchParams.get("session_id")!;
    await p.ok(200, "/api/subscriptions/activateLifetimePurchase", { session_id: sessionId, planId: "lifetime" });
    return { values: { id: sessionId }, marks: [sessionId] };
  },
  async paypalSubscription(p) {
    const back = { returnUrl: "http://app.test/pricing?paymentMessage=success", cancelUrl: "http://app.test/pricing?paymentMessage=cancel" };
    const created = await paypal.createSubscription(testEnv, { planId: PAYPAL_PLAN_IDS["starter-monthly"], customId: p.user.userId, ...back });
    await approvePayPal(paypal.approveLink(created.links)!);
    await p.ok(200, "/api/subscriptions/activateUserSubscription", { subscriptionID: created.id, planId: "starter-monthly" });
    return { values: { id: created.id }, marks: [created.id] };
  },
  async shopProfile(p) {
    // Connected through the Etsy flow: the stand-in's consent page, our callback in this user's browser.
    const shopName = etsyShopName(`Xu${p.label}`);
    const id = await connectEtsyShop(p.user, shopName);
    const { tokens } = await etsyAccount(shopName);
    // And a WooCommerce store, connected through the stand-in's authorisation page, for the routes that list one.
    const store = newStore(`xu-${p.label.toLowerCase()}`);
    const wooName = p.mark("woo shop");
    await sandbox(`/woocommerce/stores/${store}`, { method: "POST", json: { name: wooName } });
    const { shop: woo } = await connectWooCommerceStore(p.user, store);
    return { values: { id, woocommerce: woo.id }, marks: [id, shopName, ...tokens.map((token) => token.value.split(".")[1]!), woo.id, wooName] };
  },
  async shopifyStore(p) {
    // A Shopify store connected through the install flow, as a browser does it (decision 029).
    // The store the user's Shopify charge is billed to, too (shopifyCharge).
    p.shop = newShop(`xu-${p.label.toLowerCase()}`);
    const store = await connectStore(p.user, p.shop);
    return { values: { id: store.id }, marks: [store.id, store.shop] };
  },
  async referralCode(p) {
    // Every user has one from sign-up; only its owner may send gifts under it.
    const { referralCode } = await p.ok(200, "/api/referrals/getReferralCode", undefined, "GET");
    return { values: { id: referralCode }, marks: [referralCode] };
  },
  async videoJob(p) {
    // A video pin from a standard video template over a photo of the demo blog (the queue and the FFmpeg service make it).
    const title = p.mark("video");
    const created = await p.ok(202, "/videoApi/video/createFFMPEGVideo", {
      post: { id: "post-1", templateType: "std-video-panel-02", title, allImages: [`${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`] },
    });
    // Made to the end, so the job's row no longer changes while the campaign compares A's data.
    let state = created;
    while (state.status !== "done") {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = await p.ok(200, `/videoApi/video/getVideoJob/${created.jobId}`, undefined, "GET");
      if (state.status === "failed") throw new Error(`${p.label}: the video job failed`);
    }
    return { values: { id: created.jobId }, marks: [created.jobId, created.videoFileName, created.videoURL] };
  },
  async catalog(p) {
    // Published to the party's profile, with an item whose picture the worker can measure (the demo blog's).
    const name = p.mark("catalog");
    const title = p.mark("catalog item");
    const { catalog } = await p.ok(201, "/api/catalogs/createCatalog", { name, pinterestUsername: profileOf(p).username });
    const { catalogItems } = await p.ok(201, "/api/catalogs/addItemsToCatalog", {
      catalogID: catalog.id,
      items: [
        {
          title,
          description: "Stonewashed linen.",
          link: "https://linen.example/napkins",
          price: "24.00",
          images: [`${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`],
        },
      ],
    });
    p.catalogItemId = catalogItems[0].id;
    return { values: { id: catalog.id }, marks: [catalog.id, name, title, new URL(catalog.feedUrl).pathname] };
  },
  async catalogItem(p) {
    if (!p.catalogItemId) throw new Error("the catalog is made before its item");
    return { values: { id: p.catalogItemId }, marks: [p.catalogItemId] };
  },
  async trendAlert(p) {
    const keyword = p
      .mark("trend")
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 90);
    const { trendAlert } = await p.ok(201, "/api/trendAlerts/createTrendAlert", {
      newTrendAlertSettings: { keywords: [keyword], regions: ["US"], interests: ["home_decor"], frequency: "weekly" },
    });
    return { values: { id: trendAlert.alertId }, marks: [trendAlert.alertId, keyword] };
  },
  async shopifyCharge(p) {
    p.shop ??= newShop(`xu-${p.label.toLowerCase()}`);
    const charge = await subscribeShopify(p.user, "starter-monthly", p.shop);
    return { values: { id: charge.chargeId }, marks: [charge.gid, p.shop] };
  },
  async rssFeed(p) {
    // A source that answers 404: "Check now" answers at once (the error is kept on the feed) instead of drawing pins.
    const name = p.mark("rss feed");
    const profile = profileOf(p);
    const { rssFeed } = await p.ok(201, "/api/rss/createRSSFeed", {
      name,
      sourceUrl: `${testEnv.SANDBOX_URL}/blog-demo/no-feed-here.xml`,
      pinterestProfileUsername: profile.username,
      boardId: profile.boards[0]!.id,
      boardName: profile.boards[0]!.name,
    });
    return { values: { id: rssFeed.id }, marks: [rssFeed.id, name, rssFeed.publicUrl.split("/").at(-1)] };
  },
  async approvalReviewer(p) {
    // A reviewer invited to the party's profile (decision 052): only its owner may remove them.
    const email = `${p
      .mark("reviewer")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ".")
      .replace(/^\.|\.$/g, "")}@example.com`;
    const { reviewer } = await p.ok(201, "/api/approvals/reviewers", { pinterestProfileUsername: profileOf(p).username, email });
    return { values: { id: reviewer.id }, marks: [reviewer.id, email] };
  },
};

/** Things that are only ever listed (no route takes them by id): made too, so the lists have something of A's to leak. */
async function listedOnly(p: Builder): Promise<string[]> {
  const title = p.mark("history");
  const added = await p.ok(200, "/api/scraping/addPinHistoryAndAdjustCredits", {
    pinDetails: { action: "downloaded", title },
    numCreditsToConsume: 1,
    category: "image",
  });
  return [title, added.historyId];
}

async function makeParty(label: string): Promise<Party> {
  const user = await signUpUser({ firstName: `Xu${label}` });
  await grantCredits(user, 1000);
  const made = new Map<string, Promise<unknown>>();
  const builder: Builder = {
    label,
    user,
    once: <T>(key: string, make: () => Promise<T>) => {
      if (!made.has(key)) made.set(key, make());
      return made.get(key) as Promise<T>;
    },
    mark: (what) => `Secret ${what} ${label}${TAG}`,
    async ok(status, path, body, method = "POST") {
      const response = await app(path, body === undefined ? { method, headers: bearer(user.tokens) } : { ...json(body, bearer(user.tokens)), method });
      const text = await response.text();
      if (response.status !== status) throw new Error(`${label}: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text);
    },
  };
  const resources = {} as Record<ResourceKind, Owned>;
  for (const kind of Object.keys(CREATE) as ResourceKind[]) resources[kind] = await CREATE[kind](builder);
  const extra = await listedOnly(builder);
  const { key: wordpressKey } = await builder.ok(201, "/api/wordpress/accessKey", {});
  const marks = [user.email, user.userId, wordpressKey, ...extra, ...Object.values(resources).flatMap((resource) => resource.marks)];
  return { label, user, wordpressKey, profile: profileOf(builder), resources, marks: [...new Set(marks)], shop: builder.shop! };
}

// ---------------------------------------------------------------------------------------------
// Requests generated from the table

const priceOf = (planId: unknown) => PLAN_ROWS.find((plan) => plan.id === planId)?.stripePriceId ?? "price_unknown";
let links = 0;

/**
 * Fields of an example body that must hold a real value of the request's
 * context to be accepted at all, by field name: the board of the profile the
 * request is about, a plan's real price, and a link not posted before (the
 * 48-hour duplicate rule).
 */
const CONTEXT: Record<string, (party: Party, siblings: Record<string, unknown>) => unknown> = {
  boardId: (party) => party.profile.boards[0].id,
  boardName: (party) => party.profile.boards[0].name,
  stripePriceID: (_, siblings) => priceOf(siblings.planId),
  newStripePriceID: (_, siblings) => priceOf(siblings.newPlanId),
  newPlanPayPalID: (_, siblings) => PAYPAL_PLAN_IDS[siblings.newPlanId as string],
  url: () => `https://linen.example/campaign/${TAG}/${(links += 1)}`,
};

const slotsOf = (route: RouteExample): OwnedSlot[] => (route.owns ? [route.owns, ...(route.alsoOwns ?? [])] : []);
const slotName = (slot: OwnedSlot) => slot.field ?? slot.param ?? slot.query ?? "?";
const valueAt = (body: unknown, path: string[]) => path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], body);

function slotValue(party: Party, kind: ResourceKind, slot: OwnedSlot): string {
  const value = party.resources[kind].values[slot.by ?? "id"];
  if (value === undefined) throw new Error(`a ${kind} is not known by its ${slot.by}`);
  return value;
}

interface Sent {
  key: string;
  method: string;
  path: string;
  body?: Record<string, unknown>;
  /** The resource values the request carries: an answer may repeat what the caller sent, and what is part of it. */
  carried: string[];
}

/** The route's example request with `fill`'s value in each owned slot (none: left out), and the context fields of `context`. */
function requestFor(key: string, route: RouteExample, fill: (slot: OwnedSlot, index: number) => string | undefined, context: Party): Sent {
  const [method, template] = key.split(" ");
  const params = { ...route.params };
  const query: Record<string, string> = { ...route.query };
  let body = route.body === undefined || route.body === "multipart" ? undefined : structuredClone(route.body);
  const carried: string[] = [];
  slotsOf(route).forEach((slot, index) => {
    const value = fill(slot, index);
    if (value === undefined) return;
    carried.push(value);
    if (slot.param) params[slot.param] = value;
    else if (slot.query) query[slot.query] = value;
    else if (slot.field) body = withField(body ?? {}, slot.field.split("."), value);
  });
  for (const path of body ? fieldPaths(body) : []) {
    const resolve = CONTEXT[path[path.length - 1]];
    if (resolve && body) body = withField(body, path, resolve(context, valueAt(body, path.slice(0, -1)) as Record<string, unknown>));
  }
  const search = new URLSearchParams(query).toString();
  return { key, method, path: `${fillPath(template, params)}${search ? `?${search}` : ""}`, body, carried };
}

/** Destructive calls last, so each of them meets resources the others left in place; undoing a cancellation after it. */
function rank(key: string): number {
  if (/remove/i.test(key)) return 3;
  if (/reactivateStripe/i.test(key)) return 2.5;
  if (/deleteAll|cancel/i.test(key)) return 2;
  return key.startsWith("DELETE ") || /delete/i.test(key) ? 1 : 0;
}
const OWNING_ROUTES = Object.entries(ROUTES)
  .filter(([, route]) => route.owns)
  .sort(([a], [b]) => rank(a) - rank(b));

async function send(caller: Party, request: Sent, ip: number) {
  const address = { "cf-connecting-ip": `10.77.${(ip >> 8) & 255}.${ip & 255}` };
  const headers = ROUTES[request.key]?.wordpressKey ? { authorization: `Bearer ${caller.wordpressKey}`, ...address } : bearer(caller.user.tokens, address);
  const response = await app(
    request.path,
    request.body === undefined ? { method: request.method, headers } : { ...json(request.body, headers), method: request.method },
  );
  const text = await response.text();
  let field: unknown;
  let error: unknown;
  try {
    ({ field, error } = JSON.parse(text) as { field?: unknown; error?: unknown });
  } catch {
    // Not JSON: judged by its status and text.
  }
  return { status: response.status, text: readable(text), field, error };
}

/** An answer's text, with the claims of any signed token in it (a handle names its profile only inside). */
function readable(text: string): string {
  const claims = [...text.matchAll(/eyJ[\w-]+\.(eyJ[\w-]+)\.[\w-]+/g)].map(([, part]) => {
    const base64 = part.replaceAll("-", "+").replaceAll("_", "/");
    return atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  });
  return [text, ...claims].join("\n");
}

const describeRequest = (request: Sent) => `${request.method} ${request.path}${request.body ? ` ${JSON.stringify(request.body).slice(0, 160)}` : ""}`;

// ---------------------------------------------------------------------------------------------
// A's data, everywhere it is kept

let userTables: { name: string; where: string }[] | undefined;

/** Every table holding a user's rows (a user_id or owner_id column), and the rows tied to them otherwise. */
async function tablesOfUsers() {
  if (userTables) return userTables;
  const tables = (
    await testEnv.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name").all<{
      name: string;
    }>()
  ).results;
  const found: { name: string; where: string }[] = [];
  for (const { name } of tables) {
    const columns = (await testEnv.DB.prepare("SELECT name FROM pragma_table_info(?1)").bind(name).all<{ name: string }>()).results.map(
      (column) => column.name,
    );
    if (name === "users") found.push({ name, where: "id = ?1" });
    else if (columns.includes("user_id"))
      found.push({
        name,
        where: name === "template_favorites" ? "user_id = ?1 OR template_id IN (SELECT id FROM templates WHERE owner_id = ?1)" : "user_id = ?1",
      });
    else if (columns.includes("owner_id")) found.push({ name, where: "owner_id = ?1" });
    else if (name === "scheduler_index") found.push({ name, where: "profile_key IN (SELECT id FROM pinterest_profiles WHERE user_id = ?1)" });
  }
  return (userTables = found);
}

async function snapshotOf(party: Party): Promise<Record<string, unknown>> {
  const tables = await tablesOfUsers();
  const rows = await testEnv.DB.batch(tables.map(({ name, where }) => testEnv.DB.prepare(`SELECT * FROM "${name}" WHERE ${where}`).bind(party.user.userId)));
  const snapshot: Record<string, unknown> = {};
  tables.forEach(({ name }, i) => {
    snapshot[`d1 ${name}`] = rows[i].results.map((row) => JSON.stringify(row)).sort();
  });
  const scheduler = schedulerFor(testEnv, party.profile.profileId);
  snapshot.queue = await scheduler.list({ view: "all", sortBy: "scheduledTimeUTCTimestamp-asc" });
  snapshot.repeating = await scheduler.listRepeating({});
  const objects = await testEnv.MEDIA.list({ prefix: userMediaPrefix(party.user.userId) });
  snapshot.r2 = objects.objects.map((object) => `${object.key} ${object.etag} ${object.size}`).sort();
  const subscription = await sandboxSubscription(party.resources.subscription.values.id!);
  snapshot.stripe = {
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    prices: subscription.items.data.map((item) => item.price.id),
  };
  const payPal = await paypal.getSubscription(testEnv, party.resources.paypalSubscription.values.id!);
  snapshot.paypal = { status: payPal.status, plan: payPal.plan_id };
  snapshot.shopify = (await sandbox<{ id: string; status: string; name: string }[]>(`/shopify/subscriptions?shop=${party.shop}`)).map(
    ({ id, status, name }) => ({ id, status, name }),
  );
  const accounts = await sandbox<{ username: string; boards: { id: string; name: string }[] }[]>("/pinterest/accounts");
  snapshot["pinterest boards"] = accounts.find((account) => account.username === party.profile.username)?.boards.map((board) => `${board.id} ${board.name}`);
  return snapshot;
}

/** A's things as A's own API shows them: read before B's attempts and after. */
async function ownView(party: Party) {
  const get = async (path: string, body?: unknown) => {
    const response = await app(path, body === undefined ? { headers: bearer(party.user.tokens) } : json(body, bearer(party.user.tokens)));
    return { status: response.status, body: await response.text() };
  };
  const { resources: r, profile } = party;
  return {
    template: await get(`/api/template/${r.template.values.id}`),
    templates: await get("/api/templates"),
    categories: await get("/api/templates/categories/getTemplateCategories"),
    draft: await get(`/api/user/drafts/getDraft/${r.draft.values.id}`),
    design: await get(`/api/user/getDesignSettingsProfile/${encodeURIComponent(r.designProfile.values.name!)}`),
    media: await get("/api/user/media/getUserMedia"),
    queue: await get(`/api/scheduling/getScheduledPins/${profile.username}?status=all`),
    repeating: await get(`/api/scheduling/getRepeatingPins/${profile.username}`),
    subscription: await get("/api/subscriptions/current"),
    credits: await get("/api/user/credits"),
    history: await get("/api/user/getPinHistory", {}),
  };
}

/** Which keys of two snapshots differ. */
function differences(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys({ ...before, ...after }).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

// ---------------------------------------------------------------------------------------------

let owner: Party;
let other: Party;

beforeAll(async () => {
  [owner, other] = await Promise.all([makeParty("A"), makeParty("B")]);
}, 60_000);

describe("cross-user access, every resource", () => {
  it("knows a creator for every kind the table names, and every kind is taken by some route", () => {
    const kinds = new Set(Object.keys(CREATE));
    const named = Object.values(ROUTES).flatMap((route) => slotsOf(route).map((slot) => slot.kind));
    expect(
      named.filter((kind) => !kinds.has(kind)),
      "kinds a route owns that this test cannot create",
    ).toEqual([]);
    const reached = new Set(named.flatMap((kind) => [kind, ...(REACHED_THROUGH[kind] ?? [])]));
    expect(
      [...kinds].filter((kind) => !reached.has(kind as ResourceKind)),
      "kinds no route takes",
    ).toEqual([]);
  });

  it("marks every slot that looks like a resource id, in every route the app serves, as owned or not", () => {
    const unmarked: string[] = [];
    for (const key of servedRoutes(router.routes)) {
      const route = ROUTES[key];
      if (!route) {
        unmarked.push(`${key}: not in campaign-routes.ts`);
        continue;
      }
      const owned = new Set(slotsOf(route).map(slotName));
      const body = route.body === undefined || route.body === "multipart" ? {} : route.body;
      const slots = [
        ...(key.match(/:([A-Za-z]+)/g) ?? []).map((param) => ({ path: param.slice(1), leaf: param.slice(1), always: true })),
        ...Object.keys(route.query ?? {}).map((name) => ({ path: name, leaf: name, always: false })),
        ...fieldPaths(body)
          .filter((path) => {
            const value = valueAt(body, path);
            return value === null || typeof value !== "object";
          })
          .map((path) => ({ path: path.join("."), leaf: [...path].reverse().find((part) => !/^\d+$/.test(part)) ?? "", always: false })),
      ];
      for (const { path, leaf, always } of slots) {
        if (!always && !ID_LIKE.test(leaf)) continue;
        if (owned.has(path) || route.notOwned?.[path] || NOT_USER_OWNED[leaf]) continue;
        unmarked.push(`${key}: ${path}`);
      }
    }
    expect(unmarked, "slots neither owns/alsoOwns nor notOwned (campaign-routes.ts) nor NOT_USER_OWNED").toEqual([]);
  });

  it("refuses B every read, change and delete of A's resources, and leaves A's data unchanged", async () => {
    const failures: string[] = [];
    const viewBefore = await ownView(owner);
    const original = await snapshotOf(owner);
    let baseline = original;
    let sent = 0;
    const cases = new Set<string>();
    const statuses: Record<string, number> = {};

    const check = async (label: string, request: Sent, verdict: (answer: Awaited<ReturnType<typeof send>>) => string | null) => {
      sent += 1;
      const answer = await send(other, request, sent);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const leaked = owner.marks.filter((mark) => answer.text.includes(mark) && !request.carried.some((value) => value.includes(mark)));
      const problem = answer.status >= 500 ? `answered ${answer.status}` : leaked.length > 0 ? `shows A's ${leaked.join(", ")}` : verdict(answer);
      if (problem) failures.push(`${label}: ${problem} (${answer.status} ${answer.text.slice(0, 200)}) for ${describeRequest(request)}`);
      const now = await snapshotOf(owner);
      const changed = differences(baseline, now);
      if (changed.length > 0) {
        failures.push(`${label}: changed A's ${changed.join(", ")} (${answer.status}) for ${describeRequest(request)}`);
        baseline = now;
      }
    };

    // Every owned slot of every route. The route's first (`owns`) as A would send it: A's
    // resources in every slot. Each further one (`alsoOwns`) with B's own in the others, as B
    // would try to reach A's thing through its own. Other query parameters (optional cursors)
    // are left out, so they are never what refuses or hides an answer.
    for (const [key, route] of OWNING_ROUTES) {
      const slots = slotsOf(route);
      for (const [index, slot] of slots.entries()) {
        for (const kind of [slot.kind, ...(REACHED_THROUGH[slot.kind] ?? [])]) {
          const fill = (s: OwnedSlot, i: number) =>
            i === index ? slotValue(owner, kind, s) : s.query ? undefined : slotValue(index === 0 ? owner : other, s.kind, s);
          const request = requestFor(key, route, fill, index === 0 ? owner : other);
          cases.add(`${key} ${slotName(slot)} ${kind}`);
          await check(`${key} with A's ${kind} in ${slotName(slot)}`, request, (answer) => {
            if (answer.error === "Your sign-in has expired. Please log in again.") return "refused B's sign-in, not the resource";
            if (answer.status >= 200 && answer.status < 300) return null;
            if (answer.status === 403 || answer.status === 404) return null;
            if ((answer.status === 400 || answer.status === 401) && answer.field === slotName(slot)) return null;
            return `refused for another reason than whose the ${kind} is`;
          });
        }
      }
    }

    // Every list of the caller's own things, as B: with its example query (B's own values in owned slots) and without any.
    for (const [key, route] of Object.entries(ROUTES).filter(([, r]) => r.listsOwn)) {
      const request = requestFor(key, route, (slot) => slotValue(other, slot.kind, slot), other);
      const bare = { ...request, path: request.path.split("?")[0] };
      for (const variant of request.path === bare.path ? [request] : [request, bare]) {
        await check(`${key} (B's own list)`, variant, (answer) => (answer.status === 200 ? null : "did not answer B's own list"));
      }
    }

    expect(failures.join("\n"), "B reached A's resources").toBe("");
    expect(differences(original, await snapshotOf(owner)), "A's data after all of B's attempts").toEqual([]);
    expect(await ownView(owner), "A's things as A's API shows them").toEqual(viewBefore);
    console.log(
      `cross-user campaign: ${OWNING_ROUTES.length} routes taking a resource, ${cases.size} route x slot x kind cases, ${sent} requests as B (answers ${JSON.stringify(statuses)})`,
    );
  }, 120_000);

  it("accepts each of those requests from the resources' owner, so every refusal was about whose they are", async () => {
    const refused: string[] = [];
    let ip = 5000;
    for (const [key, route] of OWNING_ROUTES) {
      const kinds = [route.owns!.kind, ...(REACHED_THROUGH[route.owns!.kind] ?? [])];
      for (const kind of kinds) {
        const request = requestFor(key, route, (slot, index) => slotValue(other, index === 0 ? kind : slot.kind, slot), other);
        const answer = await send(other, request, (ip += 1));
        if (answer.status < 200 || answer.status >= 300)
          refused.push(`${key} (own ${kind}): ${answer.status} ${answer.text.slice(0, 200)} for ${describeRequest(request)}`);
      }
    }
    expect(refused.join("\n"), "requests their owner could not make").toBe("");
  }, 120_000);
});
