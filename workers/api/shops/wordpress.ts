import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import {
  WORDPRESS_KEY_MISSING,
  WORDPRESS_KEY_REFUSED,
  WORDPRESS_RATE_LIMITED,
  WordPressBoardsParam,
  WordPressPinsBody,
  type WordPressAccountResponse,
  type WordPressBoardsResponse,
  type WordPressKeyResponse,
  type WordPressNewKeyResponse,
  type WordPressPinsResponse,
} from "../../../contracts/shops/wordpress.ts";
import { requireUser } from "../../auth/middleware.ts";
import type { User } from "../../services/accounts/accounts.ts";
import { openDesignProfile } from "../../services/content/design-settings.ts";
import { listProfiles, withPinterest } from "../../services/pinterest/pinterest-connection.ts";
import { consumeRateLimits, RATE_LIMITS, RateLimited } from "../../services/accounts/rate-limit.ts";
import { ownProfile } from "../../services/pinterest/scheduling.ts";
import { createWordPressKey, revokeWordPressKey, rotateWordPressKey, userOfWordPressKey, wordpressKeyOf } from "../../services/shops/wordpress-keys.ts";
import { pinsFromWordPressPost } from "../../services/shops/wordpress-pins.ts";
import { apiError } from "../core/errors.ts";
import type { AppBindings } from "../core/hono.ts";
import { idempotencyKey, valid } from "../core/validation.ts";

/**
 * The WordPress hand-off (issue 20, docs/decisions/054, docs/api/wordpress.md).
 * /api/wordpress/accessKey: the signed-in user's key, from /profile.
 * The plugin's calls (/account, /boards, /pins): authenticated by the key
 * alone, `Authorization: Bearer pbwp_...`; a session cookie or id token is
 * never taken for it. Every call with a valid key counts against the key's
 * rate limit before anything else happens.
 */
type WordPressBindings = { Bindings: AppBindings["Bindings"]; Variables: AppBindings["Variables"] & { keyUser: User } };

export const wordpressApi = new Hono<WordPressBindings>();

// ------------------------------------------------------------------ the key, on /profile

wordpressApi.get("/wordpress/accessKey", requireUser, async (c) => {
  return c.json({ wordpressAccessKey: await wordpressKeyOf(c.env, c.var.auth.user.id) } satisfies WordPressKeyResponse);
});

wordpressApi.post("/wordpress/accessKey", requireUser, async (c) => {
  return c.json((await createWordPressKey(c.env, c.var.auth.user)) satisfies WordPressNewKeyResponse, 201);
});

wordpressApi.post("/wordpress/accessKey/rotate", requireUser, async (c) => {
  return c.json((await rotateWordPressKey(c.env, c.var.auth.user)) satisfies WordPressNewKeyResponse);
});

wordpressApi.delete("/wordpress/accessKey", requireUser, async (c) => {
  await revokeWordPressKey(c.env, c.var.auth.user);
  return c.json({ wordpressAccessKey: null } satisfies WordPressKeyResponse);
});

// ------------------------------------------------------------------ the plugin's calls

/** The key's user, or 401; then one request counted against the key's limit (429 past it). */
const requireWordPressKey = createMiddleware<WordPressBindings>(async (c, next) => {
  const key = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!key) return apiError(c, 401, WORDPRESS_KEY_MISSING, "Authorization");
  const user = await userOfWordPressKey(c.env, key);
  if (!user) return apiError(c, 401, WORDPRESS_KEY_REFUSED, "Authorization");
  try {
    // One key per user: the limit is kept per user, so rotating the key does not reset it.
    await consumeRateLimits(c.env.DB, [[RATE_LIMITS.wordpressPerKey, user.id]]);
  } catch (error) {
    if (error instanceof RateLimited) throw new RateLimited(error.retryAfterSeconds, WORDPRESS_RATE_LIMITED);
    throw error;
  }
  c.set("keyUser", user);
  return next();
});

wordpressApi.get("/wordpress/account", requireWordPressKey, async (c) => {
  const user = c.var.keyUser;
  const [profiles, design] = await Promise.all([listProfiles(c.env, user.id), openDesignProfile(c.env, user, "active")]);
  return c.json({
    handle: user.handle,
    firstName: user.firstName,
    pinterestProfiles: profiles.map((profile) => ({ username: profile.username, isActive: profile.isActive, status: profile.status })),
    activeDesignSettings: design.activeDesignSettings.name,
  } satisfies WordPressAccountResponse);
});

wordpressApi.get("/wordpress/boards/:username", requireWordPressKey, valid("param", WordPressBoardsParam), async (c) => {
  const profile = await ownProfile(c.env, c.var.keyUser, c.req.valid("param").username);
  const boards = await withPinterest(c.env, profile, (client, token) => client.listAllBoards(token, { pageSize: 250 }));
  return c.json({ boards: boards.map((board) => ({ id: board.id, name: board.name })) } satisfies WordPressBoardsResponse);
});

wordpressApi.post("/wordpress/pins", requireWordPressKey, valid("json", WordPressPinsBody), async (c) => {
  const input = c.req.valid("json");
  const { reference, ...post } = input;
  const result = await pinsFromWordPressPost(c.env, c.var.keyUser, post, idempotencyKey(c, reference));
  return c.json(result satisfies WordPressPinsResponse, 201);
});
