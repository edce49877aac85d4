import { Hono, type Context, type MiddlewareHandler } from "hono";
import { createHmac } from "node:crypto";
import type { SandboxState } from "../../state.ts";
import {
  characters,
  DIGITS,
  encodeBookmark,
  ERRORS,
  invalid,
  isHttpUrl,
  jsonObjectBody,
  mountBase,
  pageRequest,
  pinterestError,
  stringFieldProblem,
} from "./http.ts";
import { chooseFault, createsFirst, faultBeforeCreate, planFor } from "./fault-rate.ts";
import { tokenEndpoint } from "./oauth.ts";
import { catalogFeedRoutes } from "./catalogs.ts";
import { addAnalyticsRoutes } from "./analytics.ts";
import { addTrendsRoutes } from "./trends.ts";
import {
  accountFor,
  DEFAULT_MEDIA_PROCESSING,
  freshId,
  numericId,
  pinterestState,
  type AccountRecord,
  type BoardPrivacy,
  type BoardRecord,
  type MediaRecord,
  type PinMediaRecord,
  type PinRecord,
  type PinterestState,
  type TokenRecord,
} from "./state.ts";

type Env = { Variables: { account: AccountRecord; token: TokenRecord } };

/** Secret the stand-in "signs" upload policies with; the upload endpoint checks it. */
const UPLOAD_SIGNING_KEY = "pinterest-sandbox-upload-signing-key";

/**
 * Pinterest API v5 (mounted at /pinterest/v5): the operations of
 * ../shared/specs/pinterest-api-v5.openapi.json the app uses. Every call but the
 * token endpoint needs a bearer access token: missing, unknown, expired or revoked
 * tokens get 401 {code: 2}; a token without the operation's scopes 401 {code: 3};
 * a blocked account 403 {code: 29}; past the account's per-minute budget 429 {code: 8}
 * with x-ratelimit-* and Retry-After headers.
 */
export function pinterestV5(state: SandboxState) {
  const app = new Hono<Env>();

  app.post("/oauth/token", (c) => tokenEndpoint(c, state));
  app.use("*", authenticate(state));

  addTrendsRoutes(app, state, requireScopes);
  addAnalyticsRoutes(app, state, requireScopes);

  app.get("/user_account", (c) => {
    const denied = requireScopes(c, ["user_accounts:read"]);
    if (denied) return denied;
    const account = c.var.account;
    const pinterest = pinterestState(state);
    const base = mountBase(c, "/v5/");
    return c.json({
      id: account.id,
      username: account.username,
      account_type: "BUSINESS",
      business_name: titleCase(account.username),
      about: `Sandbox Pinterest account of ${account.username}.`,
      profile_image: `${base}/avatars/${account.username}.svg`,
      website_url: `https://${account.username.replace(/_/g, "-")}.example.com`,
      board_count: account.boards.length,
      pin_count: pinterest.pins.filter((pin) => pin.username === account.username).length,
      follower_count: 120,
      following_count: 45,
      monthly_views: 3400,
    });
  });

  app.get("/boards", (c) => {
    const denied = requireScopes(c, ["boards:read"]);
    if (denied) return denied;
    const account = c.var.account;
    const privacy = c.req.query("privacy");
    const filters: Record<string, BoardPrivacy[]> = {
      ALL: ["PUBLIC", "PROTECTED", "SECRET"],
      PUBLIC: ["PUBLIC"],
      PROTECTED: ["PROTECTED"],
      SECRET: ["SECRET"],
      PUBLIC_AND_SECRET: ["PUBLIC", "SECRET"],
    };
    if (privacy !== undefined && !filters[privacy]) return invalid(c, "'privacy' must be ALL, PUBLIC, PROTECTED, SECRET or PUBLIC_AND_SECRET.");
    const page = pageRequest(c, "boards", account.username);
    if (page instanceof Response) return page;
    const wanted = filters[privacy ?? "ALL"];
    const boards = account.boards.filter((board) => wanted.includes(board.privacy) && canSee(c.var.token, board));
    const offset = typeof page.bookmark?.o === "number" ? page.bookmark.o : 0;
    const items = boards.slice(offset, offset + page.pageSize);
    const next = offset + page.pageSize < boards.length ? encodeBookmark("boards", account.username, { o: offset + page.pageSize }) : null;
    return c.json({ items: items.map((board) => boardJson(c, state, board)), bookmark: next });
  });

  app.post("/boards", async (c) => {
    const denied = requireScopes(c, ["boards:read", "boards:write"]);
    if (denied) return denied;
    const body = await jsonObjectBody(c);
    if (body instanceof Response) return body;
    if (typeof body.name !== "string" || !body.name.trim()) return invalid(c, "'name' is required and must be a non-empty string.");
    const problem = stringFieldProblem(body, "description");
    if (problem) return invalid(c, problem);
    const privacy = body.privacy ?? "PUBLIC";
    if (privacy !== "PUBLIC" && privacy !== "PROTECTED" && privacy !== "SECRET") return invalid(c, "'privacy' must be PUBLIC, PROTECTED or SECRET.");
    if (body.is_ads_only !== undefined && typeof body.is_ads_only !== "boolean") return invalid(c, "'is_ads_only' must be a boolean.");
    if (body.is_ads_only === true) return invalid(c, "'is_ads_only' boards are not implemented by the sandbox.");
    if (privacy === "SECRET") {
      const secretDenied = requireScopes(c, ["boards:write_secret"]);
      if (secretDenied) return secretDenied;
    }
    const pinterest = pinterestState(state);
    const account = c.var.account;
    const now = new Date().toISOString();
    const board: BoardRecord = {
      id: numericId(`board:${account.username}:created:${Date.now()}:${++pinterest.counters.board}`),
      username: account.username,
      name: body.name.trim(),
      description: typeof body.description === "string" ? body.description : null,
      privacy,
      createdAt: now,
      pinsModifiedAt: now,
      sections: [],
    };
    account.boards.push(board);
    return c.json(boardJson(c, state, board), 201);
  });

  app.get("/boards/:board_id/sections", (c) => {
    const denied = requireScopes(c, ["boards:read"]);
    if (denied) return denied;
    const board = ownBoard(c);
    if (board instanceof Response) return board;
    const page = pageRequest(c, "sections", board.id);
    if (page instanceof Response) return page;
    const offset = typeof page.bookmark?.o === "number" ? page.bookmark.o : 0;
    const items = board.sections.slice(offset, offset + page.pageSize);
    const next = offset + page.pageSize < board.sections.length ? encodeBookmark("sections", board.id, { o: offset + page.pageSize }) : null;
    return c.json({ items: items.map((section) => ({ id: section.id, name: section.name })), bookmark: next });
  });

  app.post("/boards/:board_id/sections", async (c) => {
    const denied = requireScopes(c, ["boards:read", "boards:write"]);
    if (denied) return denied;
    const board = ownBoard(c);
    if (board instanceof Response) return board;
    const body = await jsonObjectBody(c);
    if (body instanceof Response) return body;
    if (typeof body.name !== "string" || characters(body.name.trim()) < 1) return invalid(c, "'name' is required and must be a non-empty string.");
    if (characters(body.name) > 180) return invalid(c, `'name' is too long (${characters(body.name)} characters; at most 180).`);
    const pinterest = pinterestState(state);
    const section = { id: numericId(`section:${board.id}:created:${Date.now()}:${++pinterest.counters.section}`), name: body.name.trim() };
    board.sections.push(section);
    return c.json(section, 201);
  });

  app.get("/boards/:board_id/pins", (c) => {
    const denied = requireScopes(c, ["boards:read", "pins:read"]);
    if (denied) return denied;
    const board = ownBoard(c);
    if (board instanceof Response) return board;
    const creativeTypes =
      c.req
        .queries("creative_types")
        ?.flatMap((value) => value.split(","))
        .filter(Boolean) ?? [];
    const knownTypes = [
      "REGULAR",
      "VIDEO",
      "SHOPPING",
      "CAROUSEL",
      "MAX_VIDEO",
      "SHOP_THE_PIN",
      "COLLECTION",
      "IDEA",
      "SHOWCASE",
      "QUIZ",
      "COLLAGE",
      "MAX_WIDTH_REGULAR_COLLECTION",
      "MAX_WIDTH_VIDEO_COLLECTION",
    ];
    const unknownType = creativeTypes.find((type) => !knownTypes.includes(type));
    if (unknownType) return invalid(c, `'creative_types' has an unknown creative type: ${unknownType}.`);
    const pinMetrics = c.req.query("pin_metrics");
    if (pinMetrics !== undefined && pinMetrics !== "true" && pinMetrics !== "false") return invalid(c, "'pin_metrics' must be true or false.");
    const page = pageRequest(c, "pins", board.id);
    if (page instanceof Response) return page;
    const before = typeof page.bookmark?.before === "number" ? page.bookmark.before : Number.POSITIVE_INFINITY;
    const pins = pinterestState(state)
      .pins.filter((pin) => pin.boardId === board.id && pin.seq < before)
      .filter((pin) => creativeTypes.length === 0 || creativeTypes.includes(creativeType(pin)))
      .sort((a, b) => b.seq - a.seq);
    const items = pins.slice(0, page.pageSize);
    const next = pins.length > page.pageSize ? encodeBookmark("pins", board.id, { before: items[items.length - 1].seq }) : null;
    return c.json({ items: items.map((pin) => pinJson(c, pin)), bookmark: next });
  });

  app.post("/pins", async (c) => {
    const denied = requireScopes(c, ["boards:read", "boards:write", "pins:read", "pins:write"]);
    if (denied) return denied;
    const body = await jsonObjectBody(c);
    if (body instanceof Response) return body;
    const pinterest = pinterestState(state);
    const account = c.var.account;

    if (body.board_id === undefined || body.board_id === null) return invalid(c, "'board_id' is required.");
    if (typeof body.board_id !== "string" || !DIGITS.test(body.board_id)) return invalid(c, "'board_id' must be a string of digits.");
    if (body.board_section_id !== undefined && body.board_section_id !== null) {
      if (typeof body.board_section_id !== "string" || !DIGITS.test(body.board_section_id)) return invalid(c, "'board_section_id' must be a string of digits.");
    }
    for (const [field, max] of [
      ["title", 100],
      ["description", 800],
      ["alt_text", 500],
      ["link", 2048],
      ["dominant_color", undefined],
    ] as const) {
      const problem = stringFieldProblem(body, field, max);
      if (problem) return invalid(c, problem);
    }
    if (typeof body.link === "string" && body.link !== "" && !isHttpUrl(body.link)) return invalid(c, "'link' must be an absolute http(s) URL.");
    if (typeof body.dominant_color === "string" && !/^#[0-9A-Fa-f]{6}$/.test(body.dominant_color)) {
      return invalid(c, "'dominant_color' must be a hex color such as #6E7874.");
    }
    for (const field of ["parent_pin_id", "sponsor_id"]) {
      if (body[field] !== undefined && body[field] !== null) return invalid(c, `'${field}' is not implemented by the sandbox.`);
    }
    const media = mediaSource(c, pinterest, account, body.media_source);
    if (media instanceof Response) return media;

    const board = account.boards.find((candidate) => candidate.id === body.board_id && canSee(c.var.token, candidate));
    if (!board) return pinterestError(c, ERRORS.boardNotFound);
    const sectionId = typeof body.board_section_id === "string" ? body.board_section_id : null;
    if (sectionId && !board.sections.some((section) => section.id === sectionId)) return pinterestError(c, ERRORS.sectionNotFound);
    const plan = planFor(pinterest, account.username);
    const fault = plan ? chooseFault(plan, account.username, body) : null;
    if (plan && fault && !createsFirst(fault)) return faultBeforeCreate(c, pinterest, account.username, fault);

    const createPin = () => {
      const createdAt = new Date().toISOString();
      const seq = ++pinterest.counters.pin;
      const pin: PinRecord = {
        seq,
        id: freshId(seq),
        username: account.username,
        boardId: board.id,
        boardSectionId: sectionId,
        title: typeof body.title === "string" ? body.title : null,
        description: typeof body.description === "string" ? body.description : null,
        link: typeof body.link === "string" && body.link !== "" ? body.link : null,
        altText: typeof body.alt_text === "string" ? body.alt_text : null,
        dominantColor: typeof body.dominant_color === "string" ? body.dominant_color : null,
        media,
        createdAt,
      };
      pinterest.pins.push(pin);
      board.pinsModifiedAt = createdAt;
      // Pinterest copies the picture when the pin is made and serves its own copy from then on.
      if (media.sourceType === "image_url") void copyPicture(pinterest, pin);
      return pin;
    };
    if (takeLateCreate(pinterest, account, createPin)) return breakConnection(c, new Response(null, { status: 201 }));
    const pin = createPin();
    const answer = c.json(pinJson(c, pin), 201);
    if (fault?.kind === "lost_answer") return breakConnection(c, answer);
    if (fault?.kind === "late_answer") return holdBack(answer, plan!.delayMs);
    if (fault?.kind === "error_after_create") {
      const status = fault.detail < 0.5 ? 502 : 504;
      return c.json({ code: status, message: `Fault injected by the sandbox after the pin was created (${status})` }, status);
    }
    return dropAfterCreate(c, pinterest, account, answer);
  });

  app.post("/media", async (c) => {
    const denied = requireScopes(c, ["pins:read", "pins:write"]);
    if (denied) return denied;
    const body = await jsonObjectBody(c);
    if (body instanceof Response) return body;
    if (body.media_type !== "video") return invalid(c, "'media_type' is required and must be \"video\".");
    const pinterest = pinterestState(state);
    const id = freshId(++pinterest.counters.media);
    const uploadKey = `uploads/${id.slice(-2)}/${id.slice(-4, -2)}/video:${c.var.account.id}:${id}`;
    const media: MediaRecord = {
      id,
      username: c.var.account.username,
      status: "registered",
      uploadKey,
      signature: createHmac("sha256", UPLOAD_SIGNING_KEY).update(uploadKey).digest("hex"),
      registeredReads: 0,
      processingReads: 0,
      outcome: "succeeded",
      uploadedBytes: null,
      createdAt: new Date().toISOString(),
    };
    pinterest.media.set(id, media);
    const now = new Date();
    const amzDate = now
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
    const policy = Buffer.from(
      JSON.stringify({
        expiration: new Date(now.getTime() + 3600_000).toISOString(),
        conditions: [{ bucket: "pinterest-media-upload" }, ["eq", "$key", uploadKey]],
      }),
    ).toString("base64");
    return c.json(
      {
        media_id: id,
        media_type: "video",
        upload_url: `${mountBase(c, "/v5/")}/media-upload/`,
        upload_parameters: {
          "x-amz-date": amzDate,
          "x-amz-signature": media.signature,
          "x-amz-security-token": `sandbox-${id}`,
          "x-amz-algorithm": "AWS4-HMAC-SHA256",
          key: uploadKey,
          policy,
          "x-amz-credential": `SANDBOX/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
          "Content-Type": "multipart/form-data",
        },
      },
      201,
    );
  });

  app.get("/media/:media_id", (c) => {
    const denied = requireScopes(c, ["pins:read"]);
    if (denied) return denied;
    const id = c.req.param("media_id");
    if (!DIGITS.test(id)) return invalid(c, "'media_id' must be a string of digits.");
    const media = pinterestState(state).media.get(id);
    if (!media || media.username !== c.var.account.username) return pinterestError(c, ERRORS.mediaNotFound);
    // Deterministic processing, as the account's media plan says (by default the first read after
    // the upload sees "processing", the next the outcome).
    if (media.uploadedBytes !== null && media.status === "registered") {
      if (media.registeredReads > 0) media.registeredReads -= 1;
      else media.status = "processing";
    }
    if (media.status === "processing") {
      if (media.processingReads > 0) media.processingReads -= 1;
      else media.status = media.outcome;
    }
    return c.json(mediaJson(media));
  });

  app.get("/media", (c) => {
    const denied = requireScopes(c, ["pins:read"]);
    if (denied) return denied;
    const account = c.var.account;
    const page = pageRequest(c, "media", account.username);
    if (page instanceof Response) return page;
    // Newest first, like the account's other lists.
    const uploads = [...pinterestState(state).media.values()].filter((media) => media.username === account.username).reverse();
    const offset = typeof page.bookmark?.o === "number" ? page.bookmark.o : 0;
    const next = offset + page.pageSize < uploads.length ? encodeBookmark("media", account.username, { o: offset + page.pageSize }) : null;
    return c.json({ items: uploads.slice(offset, offset + page.pageSize).map(mediaJson), bookmark: next });
  });

  catalogFeedRoutes(app, state);

  app.notFound((c) => c.json({ code: 404, message: `The sandbox's Pinterest stand-in has no ${c.req.method} ${c.req.path}` }, 404));
  return app;
}

/**
 * The S3-style upload endpoint a MediaUpload's upload_url names: a multipart
 * POST with every upload_parameters field plus `file`. Answers 204 like S3; the
 * media then reads "processing" once and ends "succeeded" (or "failed" when the
 * file is not an MP4/MOV video).
 */
export async function mediaUpload(c: Context, state: SandboxState) {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) return s3Error(c, 400, "InvalidArgument", "POST requires a multipart/form-data body.");
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return s3Error(c, 400, "MalformedPOSTRequest", "The body of your POST request is not well-formed multipart/form-data.");
  }
  const key = form.get("key");
  if (typeof key !== "string" || !key) return s3Error(c, 400, "InvalidArgument", "Bucket POST must contain a field named 'key'.");
  const media = [...pinterestState(state).media.values()].find((candidate) => candidate.uploadKey === key);
  if (!media || form.get("x-amz-signature") !== media.signature || typeof form.get("policy") !== "string") {
    return s3Error(c, 403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.");
  }
  if (media.uploadedBytes !== null || media.status !== "registered") return s3Error(c, 403, "AccessDenied", "This upload was already used.");
  const file = form.get("file");
  if (!file || typeof file === "string") return s3Error(c, 400, "InvalidArgument", "POST requires exactly one file upload per request (field 'file').");
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length === 0) return s3Error(c, 400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed object size.");
  const plan = pinterestState(state).mediaProcessing.get(media.username) ?? DEFAULT_MEDIA_PROCESSING;
  media.uploadedBytes = bytes.length;
  media.registeredReads = plan.registeredReads;
  media.processingReads = plan.processingReads;
  media.status = plan.registeredReads > 0 ? "registered" : "processing";
  media.outcome = looksLikeVideo(bytes) && plan.outcome === "succeeded" ? "succeeded" : "failed";
  return c.body(null, 204);
}

function mediaJson(media: MediaRecord) {
  return { media_id: media.id, media_type: "video", status: media.status };
}

function s3Error(c: Context, status: 400 | 403, code: string, message: string) {
  c.header("content-type", "application/xml");
  return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`, status);
}

/** MP4 and QuickTime files carry an "ftyp" (or "moov"/"wide"/"mdat") box type at byte 4. */
function looksLikeVideo(bytes: Uint8Array) {
  const box = new TextDecoder().decode(bytes.subarray(4, 8));
  return ["ftyp", "moov", "wide", "mdat", "free"].includes(box);
}

// ---- authentication, scopes, rate limit -------------------------------------------------------

function authenticate(state: SandboxState): MiddlewareHandler<Env> {
  return async (c, next) => {
    const pinterest = pinterestState(state);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
    const token = match ? pinterest.tokens.get(match[1]) : undefined;
    if (token?.kind !== "access" || token.spent || token.expiresAt <= Date.now()) {
      return pinterestError(c, ERRORS.authenticationFailed);
    }
    const account = accountFor(pinterest, token.username);
    if (account.blocked) return pinterestError(c, ERRORS.notPermitted);
    const limit = account.rateLimit ?? pinterest.rateLimit;
    const now = Date.now();
    if (now - account.window.start >= limit.windowSeconds * 1000) account.window = { start: now, count: 0 };
    const resetSeconds = Math.max(1, Math.ceil((account.window.start + limit.windowSeconds * 1000 - now) / 1000));
    c.header("x-ratelimit-limit", String(limit.perMinute));
    c.header("x-ratelimit-reset", String(resetSeconds));
    if (account.window.count >= limit.perMinute) {
      c.header("x-ratelimit-remaining", "0");
      c.header("retry-after", String(resetSeconds));
      return pinterestError(c, ERRORS.rateLimited);
    }
    account.window.count += 1;
    c.header("x-ratelimit-remaining", String(limit.perMinute - account.window.count));
    c.set("account", account);
    c.set("token", token);
    await next();
  };
}

function requireScopes(c: Context<Env>, scopes: string[]) {
  const granted = c.var.token.scopes;
  return scopes.every((scope) => granted.includes(scope)) ? null : pinterestError(c, ERRORS.insufficientScope);
}

/** Secret boards exist for a token only with boards:read_secret. */
function canSee(token: TokenRecord, board: BoardRecord) {
  return board.privacy !== "SECRET" || token.scopes.includes("boards:read_secret");
}

/** The caller's board named by :board_id, or a 404 (another account's board is "not found" too). */
function ownBoard(c: Context<Env>): BoardRecord | Response {
  const id = c.req.param("board_id") ?? "";
  if (!DIGITS.test(id)) return invalid(c, "'board_id' must be a string of digits.");
  const board = c.var.account.boards.find((candidate) => candidate.id === id);
  return board && canSee(c.var.token, board) ? board : pinterestError(c, ERRORS.boardNotFound);
}

// ---- pins -------------------------------------------------------------------------------------

const CONTENT_SIGNATURES: Record<string, number[]> = {
  "image/jpeg": [0xff, 0xd8, 0xff],
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

/** PinCreate.media_source checked the way Pinterest checks it, or a 400 answer. */
function mediaSource(c: Context, pinterest: PinterestState, account: AccountRecord, source: unknown): PinMediaRecord | Response {
  if (source === undefined || source === null) return invalid(c, "'media_source' is required.");
  if (typeof source !== "object" || Array.isArray(source)) return invalid(c, "'media_source' must be an object.");
  const media = source as Record<string, unknown>;
  if (media.is_standard !== undefined && typeof media.is_standard !== "boolean") return invalid(c, "'media_source.is_standard' must be a boolean.");
  switch (media.source_type) {
    case "image_url": {
      if (typeof media.url !== "string" || !media.url) return invalid(c, "'media_source.url' is required with source_type image_url.");
      if (!isHttpUrl(media.url)) return invalid(c, "'media_source.url' must be an absolute http(s) URL.");
      return { sourceType: "image_url", url: media.url };
    }
    case "image_base64": {
      if (media.content_type !== "image/jpeg" && media.content_type !== "image/png") {
        return invalid(c, "'media_source.content_type' must be image/jpeg or image/png.");
      }
      if (typeof media.data !== "string" || !/^[a-zA-Z0-9+/=]+$/.test(media.data)) {
        return invalid(c, "'media_source.data' must be the image encoded in base64.");
      }
      const data = Buffer.from(media.data, "base64");
      const signature = CONTENT_SIGNATURES[media.content_type];
      if (data.length < signature.length || !signature.every((byte, index) => data[index] === byte)) {
        return invalid(c, `'media_source.data' is not a ${media.content_type} image.`);
      }
      return { sourceType: "image_base64", contentType: media.content_type, bytes: data.length, data };
    }
    case "video_id": {
      if (typeof media.media_id !== "string" || !DIGITS.test(media.media_id)) {
        return invalid(c, "'media_source.media_id' is required with source_type video_id and must be a string of digits.");
      }
      const upload = pinterest.media.get(media.media_id);
      if (!upload || upload.username !== account.username)
        return invalid(c, `'media_source.media_id' ${media.media_id} is not a media upload of this account.`);
      if (upload.status !== "succeeded") {
        return invalid(c, `'media_source.media_id' ${media.media_id} is not ready: its status is ${upload.status}, and a pin needs "succeeded".`);
      }
      const coverUrl = media.cover_image_url;
      const keyFrame = media.cover_image_key_frame_time;
      if (coverUrl !== undefined && (typeof coverUrl !== "string" || !isHttpUrl(coverUrl))) {
        return invalid(c, "'media_source.cover_image_url' must be an absolute http(s) URL.");
      }
      if (keyFrame !== undefined && (typeof keyFrame !== "number" || !Number.isInteger(keyFrame) || keyFrame < 0)) {
        return invalid(c, "'media_source.cover_image_key_frame_time' must be a whole number of seconds, 0 or more.");
      }
      if (media.cover_image_data !== undefined) return invalid(c, "'media_source.cover_image_data' is not implemented by the sandbox: use cover_image_url.");
      if (coverUrl === undefined && keyFrame === undefined) {
        return invalid(c, "a video pin needs a cover image: 'media_source.cover_image_url' or 'media_source.cover_image_key_frame_time'.");
      }
      return {
        sourceType: "video_id",
        mediaId: media.media_id,
        coverImageUrl: typeof coverUrl === "string" ? coverUrl : undefined,
        coverImageKeyFrameTime: typeof keyFrame === "number" ? keyFrame : undefined,
      };
    }
    case undefined:
      return invalid(c, "'media_source.source_type' is required.");
    case "multiple_image_base64":
    case "multiple_image_urls":
    case "pin_url":
      return invalid(c, `'media_source.source_type' ${String(media.source_type)} is not implemented by the sandbox.`);
    default:
      return invalid(c, `'media_source.source_type' must be image_url, image_base64 or video_id, not "${String(media.source_type)}".`);
  }
}

function creativeType(pin: PinRecord) {
  return pin.media.sourceType === "video_id" ? "VIDEO" : "REGULAR";
}

/** The pin's image as Pinterest serves it: its own copy of the picture (fetched from the URL, or the uploaded bytes). */
export function pinImageUrl(base: string, pin: PinRecord) {
  if (pin.media.sourceType === "video_id") return pin.media.coverImageUrl ?? `${base}/images/${pin.id}`;
  return `${base}/images/${pin.id}`;
}

/** The largest picture the stand-in copies from an image_url (Pinterest's own limit is 20 MB). */
const MAX_PICTURE_BYTES = 20_000_000;

/**
 * Fetches an image_url pin's picture once, as Pinterest does when the pin is made; a picture it cannot fetch is left
 * uncopied. Only pictures on this machine are fetched (the app and the stand-ins run on loopback): no other host is
 * reachable here, and a lookup of each would hold the process's resolver threads under a benchmark's load.
 */
async function copyPicture(pinterest: PinterestState, pin: PinRecord) {
  const handed = pinterest.pictures.get(pin.media.url ?? "");
  if (handed) {
    pin.media.data = handed.data;
    pin.media.contentType = handed.contentType;
    return;
  }
  let host: string;
  try {
    host = new URL(pin.media.url ?? "").hostname;
  } catch {
    return;
  }
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]") return;
  try {
    const response = await fetch(pin.media.url ?? "", { signal: AbortSignal.timeout(10_000), redirect: "follow" });
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.startsWith("image/")) {
      await response.body?.cancel();
      return;
    }
    const data = Buffer.from(await response.arrayBuffer());
    if (data.length > MAX_PICTURE_BYTES) return;
    pin.media.data = data;
    pin.media.contentType = type;
  } catch {
    // Unreachable or too slow: Pinterest's page would show no picture; nothing else changes.
  }
}

function pinJson(c: Context, pin: PinRecord) {
  const base = mountBase(c, "/v5/");
  const url = pinImageUrl(base, pin);
  const images = Object.fromEntries(
    (
      [
        ["150x150", 150, 150],
        ["400x300", 400, 300],
        ["600x", 600, null],
        ["1200x", 1200, null],
      ] as const
    ).map(([size, width, height]) => [size, { url, width, height }]),
  );
  const media =
    pin.media.sourceType === "video_id"
      ? { media_type: "video", images, cover_image_url: url, video_url: null, duration: null, width: null, height: null }
      : { media_type: "image", images };
  return {
    id: pin.id,
    created_at: pin.createdAt,
    link: pin.link,
    title: pin.title,
    description: pin.description,
    dominant_color: pin.dominantColor,
    alt_text: pin.altText,
    creative_type: creativeType(pin),
    board_id: pin.boardId,
    board_section_id: pin.boardSectionId,
    board_owner: { username: pin.username },
    is_owner: true,
    is_standard: true,
    has_been_promoted: false,
    parent_pin_id: null,
    media,
  };
}

function boardJson(c: Context, state: SandboxState, board: BoardRecord) {
  const pins = pinterestState(state).pins.filter((pin) => pin.boardId === board.id);
  const base = mountBase(c, "/v5/");
  const thumbnails = pins
    .slice(-4)
    .reverse()
    .map((pin) => pinImageUrl(base, pin));
  return {
    id: board.id,
    created_at: board.createdAt,
    board_pins_modified_at: board.pinsModifiedAt,
    name: board.name,
    description: board.description,
    collaborator_count: 0,
    pin_count: pins.length,
    follower_count: 0,
    media: { image_cover_url: thumbnails[0] ?? null, pin_thumbnail_urls: thumbnails },
    owner: { username: board.username },
    privacy: board.privacy,
    is_ads_only: false,
  };
}

/**
 * Sandbox fault "timeout after the pin was created": the pin exists, but the
 * answer is held back (`delay`) or the connection breaks mid-answer (`reset`).
 */
async function dropAfterCreate(c: Context, pinterest: PinterestState, account: AccountRecord, response: Response): Promise<Response> {
  const drop = pinterest.dropAfterCreate;
  if (!drop || (drop.username && drop.username !== account.username)) return response;
  drop.remaining -= 1;
  if (drop.remaining <= 0) pinterest.dropAfterCreate = null;
  return drop.mode === "delay" ? holdBack(response, drop.delayMs) : breakConnection(c, response);
}

/**
 * Sandbox fault "the create is still under way when the connection breaks" (mode `late`): the client hears nothing,
 * and the pin appears `delayMs` later (0: when `POST /__sandbox/pinterest/land-late-creates` is called), as a
 * request that an overloaded backend finishes after the client gave up. Answers whether the call was taken.
 */
function takeLateCreate(pinterest: PinterestState, account: AccountRecord, create: () => unknown): boolean {
  const drop = pinterest.dropAfterCreate;
  if (drop?.mode !== "late" || (drop.username && drop.username !== account.username)) return false;
  drop.remaining -= 1;
  if (drop.remaining <= 0) pinterest.dropAfterCreate = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const land = () => {
    if (!pinterest.lateCreates.delete(land)) return;
    clearTimeout(timer);
    create();
  };
  pinterest.lateCreates.add(land);
  if (drop.delayMs > 0) timer = setTimeout(land, drop.delayMs);
  return true;
}

/** The answer, `delayMs` later (a client with a shorter time limit has given up by then). */
async function holdBack(response: Response, delayMs: number): Promise<Response> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  return response;
}

/** No answer: the connection breaks before any of it is written. */
function breakConnection(c: Context, response: Response): Response {
  // Served by @hono/node-server: close the client's connection before any answer is written.
  const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
  if (socket) {
    socket.destroy();
    return new Response(null, { status: 500 });
  }
  // Served in-process (app.fetch): an answer whose body breaks off.
  const broken = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":"'));
      controller.error(new Error("connection reset by the sandbox (drop-after-create)"));
    },
  });
  return new Response(broken, { status: response.status, headers: new Headers(response.headers) });
}

function titleCase(username: string) {
  return username
    .split("_")
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(" ");
}
