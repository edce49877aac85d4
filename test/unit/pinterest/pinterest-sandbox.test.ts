import { describe, expect, it } from "vitest";
import { useSandbox } from "../../support/sandbox.ts";

// The Pinterest API v5 stand-in (sandbox/providers/pinterest.ts), over HTTP
// against a sandbox on a free port, reset before each test.
const sandbox = useSandbox();

const CLIENT_ID = "1500000000000001";
const REDIRECT_URI = "http://app.test/pinterest/callback";
const SCOPES = "user_accounts:read,boards:read,boards:read_secret,boards:write,boards:write_secret,pins:read,pins:write";
const BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:local-secret`).toString("base64")}`;
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const url = (path: string) => `${sandbox.url}${path}`;

function authorizeUrl(params: Record<string, string>) {
  const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: "code", scope: SCOPES, state: "st-1", ...params });
  return url(`/pinterest/oauth/?${query}`);
}

async function codeFor(username: string, scope = SCOPES) {
  const response = await fetch(authorizeUrl({ auto_approve: "1", username, scope }), { redirect: "manual" });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!);
  expect(location.searchParams.get("state")).toBe("st-1");
  return location.searchParams.get("code")!;
}

function token(form: Record<string, string>, authorization = BASIC) {
  return fetch(url("/pinterest/v5/oauth/token"), {
    method: "POST",
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
}

async function connect(username: string, scope = SCOPES) {
  const response = await token({ grant_type: "authorization_code", code: await codeFor(username, scope), redirect_uri: REDIRECT_URI });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string; expires_in: number; refresh_token_expires_in: number; scope: string };
}

function api(accessToken: string, path: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(url(`/pinterest/v5${path}`), {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: { authorization: `Bearer ${accessToken}`, ...(init.json === undefined ? {} : { "content-type": "application/json" }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

function control(path: string, json?: unknown) {
  return fetch(url(`/__sandbox/pinterest${path}`), {
    method: json === undefined ? "GET" : "POST",
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

async function firstBoard(accessToken: string) {
  const boards = (await (await api(accessToken, "/boards")).json()) as { items: Array<{ id: string; name: string }> };
  return boards.items[0];
}

const imagePin = (boardId: string, extra: Record<string, unknown> = {}) => ({
  board_id: boardId,
  title: "Easy pancakes",
  description: "Fluffy pancakes in 15 minutes",
  link: "https://blog.test/pancakes",
  alt_text: "A stack of pancakes",
  media_source: { source_type: "image_url", url: "https://blog.test/pancakes.jpg" },
  ...extra,
});

describe("OAuth", () => {
  it("shows a consent page with the requested scopes; Allow sends a code back, Deny sends access_denied", async () => {
    const page = await fetch(authorizeUrl({}));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("See your public boards, including group boards you join");
    expect(html).toContain('name="username"');
    expect(html).toMatch(/Give access/);

    const form = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: "code", scope: SCOPES, state: "st-9" });
    const allow = await fetch(url("/pinterest/oauth/approve"), {
      method: "POST",
      body: new URLSearchParams([...form, ["username", "jane_pins"], ["action", "allow"]]),
      redirect: "manual",
    });
    expect(allow.status).toBe(302);
    const back = new URL(allow.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("st-9");
    const exchanged = await token({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: REDIRECT_URI });
    const tokens = await exchanged.json();
    expect((await (await api(tokens.access_token, "/user_account")).json()).username).toBe("jane_pins");

    const deny = await fetch(url("/pinterest/oauth/approve"), { method: "POST", body: new URLSearchParams([...form, ["action", "deny"]]), redirect: "manual" });
    const denied = new URL(deny.headers.get("location")!);
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("st-9");
    expect(denied.searchParams.get("code")).toBeNull();
  });

  it("refuses a bad authorization request with an error page", async () => {
    expect((await fetch(authorizeUrl({ response_type: "token" }))).status).toBe(400);
    expect((await fetch(authorizeUrl({ scope: "boards:read,boards:fly" }))).status).toBe(400);
    expect((await fetch(authorizeUrl({ redirect_uri: "not a url" }))).status).toBe(400);
  });

  it("exchanges a code once, only with the same redirect_uri and HTTP Basic client credentials", async () => {
    const code = await codeFor("jane_pins");
    const wrongRedirect = await token({ grant_type: "authorization_code", code, redirect_uri: "http://app.test/other" });
    expect(wrongRedirect.status).toBe(401);
    expect(await wrongRedirect.json()).toEqual({ code: 283, message: "The authorization grant is invalid" });

    const noClient = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }, "");
    expect(noClient.status).toBe(401);

    const first = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI });
    expect(first.status).toBe(200);
    const tokens = await first.json();
    expect(tokens).toMatchObject({ token_type: "bearer", response_type: "authorization_code", expires_in: 30 * 24 * 3600, scope: SCOPES });
    expect(tokens.access_token).toMatch(/^pina_/);
    expect(tokens.refresh_token).toMatch(/^pinr_/);

    const replay = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI });
    expect(replay.status).toBe(401);
  });

  it("rotates refresh tokens: a refresh answers new tokens and the old refresh token is refused", async () => {
    const first = await connect("jane_pins");
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = await refreshed.json();
    expect(second.response_type).toBe("refresh_token");
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.refresh_token_expires_in).toBe(60 * 24 * 3600);
    expect(second.refresh_token_expires_at).toBeGreaterThan(Date.now() / 1000);
    expect((await api(second.access_token, "/user_account")).status).toBe(200);

    const reused = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(reused.status).toBe(401);
    expect((await reused.json()).code).toBe(283);
    expect((await token({ grant_type: "refresh_token", refresh_token: second.refresh_token })).status).toBe(200);
  });

  it("keeps several Pinterest accounts apart", async () => {
    const jane = await connect("jane_pins");
    const shop = await connect("corner_shop");
    const janeAccount = await (await api(jane.access_token, "/user_account")).json();
    const shopAccount = await (await api(shop.access_token, "/user_account")).json();
    expect(janeAccount.username).toBe("jane_pins");
    expect(shopAccount.username).toBe("corner_shop");
    expect(janeAccount.id).not.toBe(shopAccount.id);
    expect(janeAccount).toMatchObject({ account_type: "BUSINESS", board_count: 5 });
    expect(janeAccount.profile_image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pinterest\/avatars\/jane_pins\.svg$/);
    expect((await fetch(janeAccount.profile_image)).headers.get("content-type")).toBe("image/svg+xml");

    // Another account's board is "not found".
    const janeBoard = await firstBoard(jane.access_token);
    const foreign = await api(shop.access_token, `/boards/${janeBoard.id}/pins`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ code: 404, message: "Board not found." });
    expect((await api(shop.access_token, "/pins", { json: imagePin(janeBoard.id) })).status).toBe(404);
    expect((await api(shop.access_token, `/boards/${janeBoard.id}/sections`)).status).toBe(404);
  });
});

describe("authentication", () => {
  it("answers 401 with Pinterest's error body for a missing, unknown or expired token, and works again after a refresh", async () => {
    const missing = await fetch(url("/pinterest/v5/user_account"));
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 2, message: "Authentication failed." });
    expect((await api("pina_made_up", "/user_account")).status).toBe(401);

    const tokens = await connect("jane_pins");
    const expired = await control("/expire-token", { username: "jane_pins" });
    expect((await expired.json()).tokens).toBe(1);
    const after = await api(tokens.access_token, "/boards");
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe(2);

    const refreshed = await (await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).json();
    expect((await api(refreshed.access_token, "/boards")).status).toBe(200);
  });

  it("issues short-lived tokens after a token-lifetime control call", async () => {
    await control("/token-lifetime", { username: "jane_pins", seconds: 1 });
    const tokens = await connect("jane_pins");
    expect(tokens.expires_in).toBe(1);
    expect((await api(tokens.access_token, "/user_account")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await api(tokens.access_token, "/user_account")).status).toBe(401);
  });

  it("answers 401 code 3 when the token lacks the operation's scopes", async () => {
    const readOnly = await connect("jane_pins", "user_accounts:read,boards:read");
    const board = await firstBoard(readOnly.access_token);
    const response = await api(readOnly.access_token, "/pins", { json: imagePin(board.id) });
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe(3);
    // Secret boards are only listed with boards:read_secret.
    const names = ((await (await api(readOnly.access_token, "/boards")).json()).items as Array<{ name: string }>).map((b) => b.name);
    expect(names).not.toContain("Secret Plans");
  });

  it("answers 403 code 29 for a blocked account until it is unblocked; a revoked account's tokens stop working", async () => {
    const tokens = await connect("jane_pins");
    await control("/block", { username: "jane_pins" });
    const blocked = await api(tokens.access_token, "/user_account");
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toEqual({ code: 29, message: "You are not permitted to access that resource." });
    await control("/block", { username: "jane_pins", blocked: false });
    expect((await api(tokens.access_token, "/user_account")).status).toBe(200);

    await control("/revoke", { username: "jane_pins" });
    expect((await api(tokens.access_token, "/user_account")).status).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(401);
  });
});

describe("boards and sections", () => {
  it("pages boards with bookmarks: 25 by default, the rest on the next page", async () => {
    const tokens = await connect("many_boards_studio");
    const first = await (await api(tokens.access_token, "/boards")).json();
    expect(first.items).toHaveLength(25);
    expect(typeof first.bookmark).toBe("string");
    const second = await (await api(tokens.access_token, `/boards?bookmark=${encodeURIComponent(first.bookmark)}`)).json();
    expect(second.items).toHaveLength(5);
    expect(second.bookmark).toBeNull();
    const ids = [...first.items, ...second.items].map((board: { id: string }) => board.id);
    expect(new Set(ids).size).toBe(30);

    const big = await (await api(tokens.access_token, "/boards?page_size=250")).json();
    expect(big.items.map((board: { id: string }) => board.id)).toEqual(ids);
    expect((await api(tokens.access_token, "/boards?page_size=251")).status).toBe(400);
    expect((await api(tokens.access_token, "/boards?bookmark=garbage")).status).toBe(400);
  });

  it("seeds the same boards for the same username after a reset", async () => {
    const before = await firstBoard((await connect("jane_pins")).access_token);
    await fetch(url("/__sandbox/reset"), { method: "POST" });
    const after = await firstBoard((await connect("jane_pins")).access_token);
    expect(after).toEqual(before);
    expect(after.name).toBe("Recipes to Try");
  });

  it("creates boards and sections, and pages sections", async () => {
    const tokens = await connect("jane_pins");
    const created = await api(tokens.access_token, "/boards", { json: { name: "Summer recipes", description: "Cold soups", privacy: "PUBLIC" } });
    expect(created.status).toBe(201);
    const board = await created.json();
    expect(board).toMatchObject({ name: "Summer recipes", description: "Cold soups", privacy: "PUBLIC", owner: { username: "jane_pins" } });
    expect(board.id).toMatch(/^\d+$/);
    const all = await (await api(tokens.access_token, "/boards")).json();
    expect(all.items.map((b: { id: string }) => b.id)).toContain(board.id);

    const noName = await api(tokens.access_token, "/boards", { json: { description: "x" } });
    expect(noName.status).toBe(400);
    expect((await noName.json()).message).toContain("'name'");
    expect((await api(tokens.access_token, "/boards", { json: { name: "X", privacy: "FRIENDS" } })).status).toBe(400);

    for (let index = 0; index < 27; index += 1) {
      const section = await api(tokens.access_token, `/boards/${board.id}/sections`, { json: { name: `Section ${index}` } });
      expect(section.status).toBe(201);
    }
    const page1 = await (await api(tokens.access_token, `/boards/${board.id}/sections`)).json();
    expect(page1.items).toHaveLength(25);
    const page2 = await (await api(tokens.access_token, `/boards/${board.id}/sections?bookmark=${page1.bookmark}`)).json();
    expect(page2.items.map((s: { name: string }) => s.name)).toEqual(["Section 25", "Section 26"]);
    expect((await api(tokens.access_token, `/boards/${board.id}/sections`, { json: { name: "" } })).status).toBe(400);
  });
});

describe("pins", () => {
  it("enforces Pinterest's field limits with a 400 naming the field", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: "t".repeat(101) }, "'title' is too long"],
      [{ description: "d".repeat(801) }, "'description' is too long"],
      [{ alt_text: "a".repeat(501) }, "'alt_text' is too long"],
      [{ link: `https://blog.test/${"l".repeat(2049 - 18)}` }, "'link' is too long"],
      [{ board_id: undefined }, "'board_id' is required"],
      [{ media_source: undefined, image_url: "https://blog.test/a.jpg" }, "'media_source' is required"],
      [{ media_source: { source_type: "image_url" } }, "'media_source.url'"],
      [
        { media_source: { source_type: "image_base64", content_type: "image/png", data: Buffer.from("not an image").toString("base64") } },
        "is not a image/png image",
      ],
      [{ media_source: { source_type: "video_id", media_id: "123", cover_image_url: "https://blog.test/c.jpg" } }, "'media_source.media_id' 123"],
    ];
    for (const [extra, message] of cases) {
      const response = await api(tokens.access_token, "/pins", { json: imagePin(board.id, extra) });
      expect(response.status, message).toBe(400);
      const body = await response.json();
      expect(body.code).toBe(1);
      expect(body.message).toContain(message);
    }
    // Exactly at the limits is fine (characters, not bytes).
    const atLimits = await api(tokens.access_token, "/pins", {
      json: imagePin(board.id, {
        title: "é".repeat(100),
        description: "d".repeat(800),
        alt_text: "a".repeat(500),
        link: `https://blog.test/${"l".repeat(2048 - 18)}`,
      }),
    });
    expect(atLimits.status).toBe(201);
    expect(await (await control("/pins")).json()).toHaveLength(1);
  });

  it("records every created pin, lists them oldest first, and lists a board's pins newest first with bookmarks", async () => {
    const tokens = await connect("jane_pins");
    const boards = (await (await api(tokens.access_token, "/boards")).json()).items as Array<{ id: string }>;
    const sections = (await (await api(tokens.access_token, `/boards/${boards[0].id}/sections`)).json()).items as Array<{ id: string; name: string }>;
    expect(sections.map((section) => section.name)).toEqual(["Breakfast", "Dinner", "Desserts"]);

    const created = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await api(tokens.access_token, "/pins", { json: imagePin(boards[0].id, { title: `Pin ${index}`, board_section_id: sections[1].id }) });
      expect(response.status).toBe(201);
      created.push(await response.json());
    }
    const base64 = await api(tokens.access_token, "/pins", {
      json: imagePin(boards[1].id, { title: "Base64", media_source: { source_type: "image_base64", content_type: "image/png", data: PNG_1X1 } }),
    });
    expect(base64.status).toBe(201);
    const base64Pin = await base64.json();
    const image = await fetch(base64Pin.media.images["600x"].url);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).toString("base64")).toBe(PNG_1X1);

    const recorded = await (await control("/pins")).json();
    expect(recorded.map((pin: { title: string }) => pin.title)).toEqual(["Pin 0", "Pin 1", "Pin 2", "Base64"]);
    expect(recorded[0]).toMatchObject({
      id: created[0].id,
      username: "jane_pins",
      board_id: boards[0].id,
      board_section_id: sections[1].id,
      description: "Fluffy pancakes in 15 minutes",
      link: "https://blog.test/pancakes",
      alt_text: "A stack of pancakes",
      media: { source_type: "image_url", url: "https://blog.test/pancakes.jpg" },
    });
    expect(Date.parse(recorded[0].created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(recorded[3].media).toMatchObject({ source_type: "image_base64", content_type: "image/png", bytes: 70 });
    expect(await (await control(`/pins?board_id=${boards[1].id}`)).json()).toHaveLength(1);

    const page1 = await (await api(tokens.access_token, `/boards/${boards[0].id}/pins?page_size=2`)).json();
    expect(page1.items.map((pin: { title: string }) => pin.title)).toEqual(["Pin 2", "Pin 1"]);
    const page2 = await (await api(tokens.access_token, `/boards/${boards[0].id}/pins?page_size=2&bookmark=${page1.bookmark}`)).json();
    expect(page2.items.map((pin: { title: string }) => pin.title)).toEqual(["Pin 0"]);
    expect(page2.bookmark).toBeNull();
    expect(page1.items[0]).toMatchObject({ link: "https://blog.test/pancakes", board_id: boards[0].id, media: { media_type: "image" } });

    // A section of another board is refused.
    const wrongSection = await api(tokens.access_token, "/pins", { json: imagePin(boards[1].id, { board_section_id: sections[0].id }) });
    expect(wrongSection.status).toBe(404);
  });

  it("creates video pins from a media upload once it has succeeded", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    const registered = await api(tokens.access_token, "/media", { json: { media_type: "video" } });
    expect(registered.status).toBe(201);
    const upload = await registered.json();
    expect(upload).toMatchObject({ media_type: "video", upload_parameters: { "Content-Type": "multipart/form-data" } });
    expect(upload.media_id).toMatch(/^\d+$/);
    const status = async () => (await (await api(tokens.access_token, `/media/${upload.media_id}`)).json()).status;
    expect(await status()).toBe("registered");

    const videoPin = imagePin(board.id, {
      media_source: { source_type: "video_id", media_id: upload.media_id, cover_image_url: "https://blog.test/cover.jpg" },
    });
    expect((await api(tokens.access_token, "/pins", { json: videoPin })).status).toBe(400);

    const form = new FormData();
    for (const [name, value] of Object.entries(upload.upload_parameters as Record<string, string>)) form.append(name, value);
    form.append("file", new Blob([fakeMp4()], { type: "video/mp4" }), "clip.mp4");
    const uploaded = await fetch(upload.upload_url, { method: "POST", body: form });
    expect(uploaded.status).toBe(204);
    expect(await status()).toBe("processing");
    expect(await status()).toBe("succeeded");
    expect(await status()).toBe("succeeded");

    const created = await api(tokens.access_token, "/pins", { json: videoPin });
    expect(created.status).toBe(201);
    expect((await created.json()).media).toMatchObject({ media_type: "video", cover_image_url: "https://blog.test/cover.jpg" });
    const [recorded] = await (await control("/pins")).json();
    expect(recorded.media).toEqual({
      source_type: "video_id",
      media_id: upload.media_id,
      cover_image_url: "https://blog.test/cover.jpg",
      cover_image_key_frame_time: null,
    });

    // A cover image is required, and uploads need the signed parameters.
    const noCover = await api(tokens.access_token, "/pins", {
      json: imagePin(board.id, { media_source: { source_type: "video_id", media_id: upload.media_id } }),
    });
    expect((await noCover.json()).message).toContain("cover image");
    const second = await (await api(tokens.access_token, "/media", { json: { media_type: "video" } })).json();
    const forged = new FormData();
    forged.append("key", second.upload_parameters.key);
    forged.append("file", new Blob([fakeMp4()]), "clip.mp4");
    expect((await fetch(second.upload_url, { method: "POST", body: forged })).status).toBe(403);
  });

  it("ends the processing of a file that is not a video in failed", async () => {
    const tokens = await connect("jane_pins");
    const upload = await (await api(tokens.access_token, "/media", { json: { media_type: "video" } })).json();
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.upload_parameters as Record<string, string>)) form.append(name, value);
    form.append("file", new Blob(["just some text, not a video"]), "notes.txt");
    expect((await fetch(upload.upload_url, { method: "POST", body: form })).status).toBe(204);
    const read = async () => (await (await api(tokens.access_token, `/media/${upload.media_id}`)).json()).status;
    expect([await read(), await read()]).toEqual(["processing", "failed"]);
  });

  it("processes an account's uploads as its media plan says, and lists the account's uploads newest first", async () => {
    const tokens = await connect("jane_pins");
    expect((await control("/media-processing", { username: "jane_pins", registeredReads: 2, processingReads: 3, outcome: "failed" })).status).toBe(201);
    expect((await control("/media-processing", { username: "jane_pins", processingReads: -1 })).status).toBe(400);
    const first = await (await api(tokens.access_token, "/media", { json: { media_type: "video" } })).json();
    const upload = await (await api(tokens.access_token, "/media", { json: { media_type: "video" } })).json();
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.upload_parameters as Record<string, string>)) form.append(name, value);
    form.append("file", new Blob([fakeMp4()]), "clip.mp4");
    expect((await fetch(upload.upload_url, { method: "POST", body: form })).status).toBe(204);
    const read = async () => (await (await api(tokens.access_token, `/media/${upload.media_id}`)).json()).status;
    const statuses = [];
    for (let i = 0; i < 7; i += 1) statuses.push(await read());
    expect(statuses).toEqual(["registered", "registered", "processing", "processing", "processing", "failed", "failed"]);

    const page = await (await api(tokens.access_token, "/media?page_size=1")).json();
    expect(page.items).toEqual([{ media_id: upload.media_id, media_type: "video", status: "failed" }]);
    const rest = await (await api(tokens.access_token, `/media?page_size=1&bookmark=${encodeURIComponent(page.bookmark)}`)).json();
    expect(rest).toEqual({ items: [{ media_id: first.media_id, media_type: "video", status: "registered" }], bookmark: null });
    await fetch(url("/__sandbox/pinterest/media-processing?username=jane_pins"), { method: "DELETE" });
  });
});

describe("rate limit", () => {
  it("answers 429 with x-ratelimit headers and Retry-After past the account's budget, per account", async () => {
    const jane = await connect("jane_pins");
    const shop = await connect("corner_shop");
    await control("/rate-limit", { username: "jane_pins", perMinute: 3 });
    const statuses = [];
    let last: Response | undefined;
    for (let index = 0; index < 4; index += 1) {
      last = await api(jane.access_token, "/user_account");
      statuses.push(last.status);
      if (index === 0) {
        expect(last.headers.get("x-ratelimit-limit")).toBe("3");
        expect(last.headers.get("x-ratelimit-remaining")).toBe("2");
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get("x-ratelimit-limit")).toBe("3");
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(last!.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(last!.headers.get("retry-after")).toBe(String(reset));
    expect((await last!.json()).code).toBe(8);
    // Another account has its own budget.
    expect((await api(shop.access_token, "/user_account")).status).toBe(200);
  });

  it("opens the budget again when the window has passed", async () => {
    const jane = await connect("jane_pins");
    await control("/rate-limit", { perMinute: 1, windowSeconds: 1 });
    expect((await api(jane.access_token, "/user_account")).status).toBe(200);
    expect((await api(jane.access_token, "/user_account")).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await api(jane.access_token, "/user_account")).status).toBe(200);
  });
});

describe("faults", () => {
  it("drop-after-create stores the pin but holds the answer back, so a client times out", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    expect((await control("/drop-after-create", { times: 1, delayMs: 2000 })).status).toBe(201);
    const attempt = fetch(url("/pinterest/v5/pins"), {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify(imagePin(board.id, { title: "Maybe posted" })),
      signal: AbortSignal.timeout(300),
    });
    await expect(attempt).rejects.toThrow();
    const recorded = await (await control("/pins")).json();
    expect(recorded.map((pin: { title: string }) => pin.title)).toEqual(["Maybe posted"]);
    // The pin is on the board, so a client can find it before posting again.
    const onBoard = await (await api(tokens.access_token, `/boards/${board.id}/pins`)).json();
    expect(onBoard.items[0].title).toBe("Maybe posted");
    // Only `times` pins are affected.
    expect((await api(tokens.access_token, "/pins", { json: imagePin(board.id) })).status).toBe(201);
  });

  it("drop-after-create in reset mode breaks the connection after storing the pin", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    await control("/drop-after-create", { mode: "reset" });
    const attempt = api(tokens.access_token, "/pins", { json: imagePin(board.id, { title: "Cut off" }) }).then((response) => response.text());
    await expect(attempt).rejects.toThrow();
    expect((await (await control("/pins")).json()).map((pin: { title: string }) => pin.title)).toEqual(["Cut off"]);
  });

  it("applies the sandbox's injected faults to Pinterest routes and records the requests with secrets masked", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    await fetch(url("/__sandbox/faults"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "pinterest", method: "POST", path: "/v5/pins", status: 503, times: 1 }),
    });
    expect((await api(tokens.access_token, "/pins", { json: imagePin(board.id) })).status).toBe(503);
    expect((await api(tokens.access_token, "/pins", { json: imagePin(board.id) })).status).toBe(201);
    expect(await (await control("/pins")).json()).toHaveLength(1);

    const requests = await (await fetch(url("/__sandbox/requests?service=pinterest"))).json();
    const exchange = requests.find((request: { path: string }) => request.path === "/v5/oauth/token");
    expect(exchange.body.grant_type).toBe("authorization_code");
    expect(exchange.headers.authorization).toMatch(/^\*\*\*\*/);
    const pins = requests.filter((request: { path: string; method: string }) => request.method === "POST" && request.path === "/v5/pins");
    expect(pins).toHaveLength(2);
    expect(pins[0].headers.authorization).not.toContain(tokens.access_token);
  });

  /** Sends `count` pins titled `<prefix> <i>`, each once; answers what each call met (a status, or "no answer"). */
  async function sendPins(accessToken: string, boardId: string, prefix: string, count: number) {
    const outcomes: (number | string)[] = [];
    for (let i = 0; i < count; i += 1) {
      try {
        const response = await api(accessToken, "/pins", { json: imagePin(boardId, { title: `${prefix} ${i}`, link: `https://blog.test/${prefix}/${i}` }) });
        await response.text();
        outcomes.push(response.status);
      } catch {
        outcomes.push("no answer");
      }
    }
    return outcomes;
  }

  it("fault-rate fails a seeded share of create-pin calls, the same pins in every run with the same seed", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    const plan = { username: "jane_pins", rate: 0.3, seed: "bench-7", kinds: ["server_error", "rate_limited", "error_after_create"] };
    expect((await control("/fault-rate", plan)).status).toBe(201);
    const first = await sendPins(tokens.access_token, board.id, "Seeded", 60);
    const failed = first.filter((outcome) => outcome !== 201).length;
    expect(failed).toBeGreaterThan(6);
    expect(failed).toBeLessThan(36);
    expect(new Set(first.filter((outcome) => outcome !== 201)).size).toBeGreaterThan(1);
    for (const outcome of first) expect([201, 500, 502, 503, 504, 429]).toContain(outcome);
    const [view] = await (await control("/fault-rate")).json();
    expect(view).toMatchObject({ username: "jane_pins", rate: 0.3, seed: "bench-7", seen: 60 });
    expect(Object.values(view.injected as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(failed);
    // Pins answered 502/504 after creation exist; pins refused before creation do not.
    const created = (await (await control("/pins?username=jane_pins")).json()).length;
    expect(created).toBe(first.filter((outcome) => outcome === 201).length + (view.injected.error_after_create ?? 0));

    // The same seed and pins, from a fresh start: the same calls fail the same way.
    await fetch(url("/__sandbox/reset"), { method: "POST" });
    const again = await connect("jane_pins");
    await control("/fault-rate", plan);
    const second = await sendPins(again.access_token, board.id, "Seeded", 60);
    expect(second.map((o) => o === 201)).toEqual(first.map((o) => o === 201));
    // Another account is not affected by jane's plan.
    const other = await connect("corner_shop");
    expect(await sendPins(other.access_token, (await firstBoard(other.access_token)).id, "Other", 10)).toEqual(Array(10).fill(201));
  });

  it("fault-rate kinds: 429 with reset headers, expired and revoked tokens, answers lost after the pin was created", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    const only = (kind: string) => control("/fault-rate", { username: "jane_pins", rate: 1, kinds: [kind] });

    await only("rate_limited");
    const limited = await api(tokens.access_token, "/pins", { json: imagePin(board.id) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ code: 8 });

    await only("lost_answer");
    await expect(api(tokens.access_token, "/pins", { json: imagePin(board.id, { title: "Lost" }) }).then((r) => r.text())).rejects.toThrow();
    await only("error_after_create");
    expect([502, 504]).toContain((await api(tokens.access_token, "/pins", { json: imagePin(board.id, { title: "Gateway" }) })).status);
    expect((await (await control("/pins")).json()).map((pin: { title: string }) => pin.title)).toEqual(["Lost", "Gateway"]);

    await only("token_expired");
    expect((await api(tokens.access_token, "/pins", { json: imagePin(board.id) })).status).toBe(401);
    expect((await api(tokens.access_token, "/user_account")).status).toBe(401);
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect((await api(fresh.access_token, "/user_account")).status).toBe(200);

    await only("token_revoked");
    expect((await api(fresh.access_token, "/pins", { json: imagePin(board.id) })).status).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: fresh.refresh_token })).status).toBe(401);

    // rate 0 removes the plan.
    await control("/fault-rate", { username: "jane_pins", rate: 0 });
    expect(await (await control("/fault-rate")).json()).toEqual([]);
  });

  it("validates control calls", async () => {
    expect((await control("/fault-rate", { rate: 1.5 })).status).toBe(400);
    expect((await control("/fault-rate", { rate: 0.2, kinds: ["meteor"] })).status).toBe(400);
    expect((await control("/fault-rate", { rate: 0.2, kinds: { server_error: -1 } })).status).toBe(400);
    expect((await control("/rate-limit", { perMinute: -1 })).status).toBe(400);
    expect((await control("/drop-after-create", { mode: "explode" })).status).toBe(400);
    expect((await control("/expire-token", { username: "no spaces allowed" })).status).toBe(400);
    expect((await control("/block", {})).status).toBe(400);
  });
});

describe("reset", () => {
  it("forgets pins, tokens, budgets, blocks and pending drops", async () => {
    const tokens = await connect("jane_pins");
    const board = await firstBoard(tokens.access_token);
    await api(tokens.access_token, "/pins", { json: imagePin(board.id) });
    await control("/rate-limit", { perMinute: 0 });
    await control("/block", { username: "corner_shop" });
    await control("/drop-after-create", { times: 5, delayMs: 5000 });
    await fetch(url("/__sandbox/reset"), { method: "POST" });

    expect(await (await control("/pins")).json()).toEqual([]);
    expect((await api(tokens.access_token, "/user_account")).status).toBe(401);
    const fresh = await connect("corner_shop");
    const account = await api(fresh.access_token, "/user_account");
    expect(account.status).toBe(200);
    expect(account.headers.get("x-ratelimit-limit")).toBe("1000");
    const started = Date.now();
    const freshBoard = await firstBoard(fresh.access_token);
    expect((await api(fresh.access_token, "/pins", { json: imagePin(freshBoard.id) })).status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/** The first bytes of an MP4 file: a box of type "ftyp" (enough for the stand-in's check). */
function fakeMp4() {
  const bytes = new Uint8Array(64);
  bytes.set([0, 0, 0, 24], 0);
  bytes.set(new TextEncoder().encode("ftypisom"), 4);
  return bytes;
}
