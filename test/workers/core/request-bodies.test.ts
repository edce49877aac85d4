import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { drafts } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { BODY_TOO_DEEP_MESSAGE, BODY_TOO_LARGE_MESSAGE, jsonDepth, MAX_JSON_BODY_BYTES } from "../../../workers/api/core/body-guard.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

// Issue 12, points 6 and 8: bodies are bounded in size (413) and in depth (400) before any route
// reads them, so nothing answers 500 and nothing is half-written.

/** The user's drafts, in their ledger (decision 084). */
const draftsOf = (user: TestUser) => ledgerOf(testEnv, user.userId).db.select().from(drafts).where(eq(drafts.userId, user.userId));

function send(user: TestUser, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return app(path, { method: "POST", headers: { "content-type": "application/json", ...bearer(user.tokens), ...headers }, body });
}

/** `{"a":{"a":...}}` nested `levels` deep. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser({ firstName: "Bea" });
});

describe("JSON nesting", () => {
  it.each(["/api/user/drafts/createDraft", "/api/user/drafts/updateDraft"])(
    "%s refuses textDesignOverrides nested 5,100 levels with 400 and saves nothing",
    async (path) => {
      const body = `{"date":"24/11/2026","draftId":"d-1","posts":[{"id":"p1","title":"Soup","textDesignOverrides":{"title":${nested(5_100)}}}]}`;
      expect(body.length).toBeGreaterThan(10_000);
      const response = await send(user, path, body);
      expect(response.status).toBe(400);
      expect(await read(response)).toEqual({ error: BODY_TOO_DEEP_MESSAGE });
      expect(await draftsOf(user)).toEqual([]);
    },
  );

  it("refuses deep nesting on other routes too, and lets ordinary bodies through", async () => {
    const deep = await send(user, "/api/openAI/rewriteText", `{"prompt":"Soup","extra":${nested(200)}}`);
    expect(deep.status).toBe(400);
    // Brackets inside strings are text, not nesting.
    const text = await send(user, "/api/user/drafts/createDraft", JSON.stringify({ date: "24/11/2026", name: "[[[[".repeat(30), posts: [] }));
    expect(text.status).toBe(400); // the name is too long: the route's own validation answers
    expect((await read(text)).field).toBe("name");
    expect(jsonDepth('{"a":"[[[[{{{{","b":[1,[2]]}')).toBe(3);
  });
});

describe("body size", () => {
  it("answers 413 with a plain message for a JSON body over the limit, declared or not", async () => {
    const big = JSON.stringify({ date: "24/11/2026", name: "Big", posts: [{ id: "p1", title: "x".repeat(MAX_JSON_BODY_BYTES) }] });
    const declared = await send(user, "/api/user/drafts/createDraft", big);
    expect(declared.status).toBe(413);
    expect(await read(declared)).toEqual({ error: BODY_TOO_LARGE_MESSAGE });

    // Sent in chunks without a Content-Length: counted as it is read.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.slice(i, i + 65_536));
        controller.close();
      },
    });
    const chunked = await app("/api/user/drafts/createDraft", {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(user.tokens) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await draftsOf(user)).toEqual([]);
  });

  it("lets a large legitimate body through (a 1 MB draft) and uploads keep their own limits", async () => {
    const posts = Array.from({ length: 40 }, (_, i) => ({
      id: `p${i}`,
      title: `Post ${i}`,
      description: "d".repeat(1_900),
      allImages: Array.from({ length: 10 }, (_, j) => `https://linenandlark.com/images/${i}-${j}-${"x".repeat(2_000)}.jpg`),
    }));
    const body = JSON.stringify({ date: "24/11/2026", name: "Big but fine", posts });
    expect(body.length).toBeGreaterThan(800_000);
    const response = await send(user, "/api/user/drafts/createDraft", body);
    expect(response.status).toBe(201);

    // An upload over the JSON limit reaches its route, which holds it to the file type's own limit.
    const form = new FormData();
    form.set("mediaType", "image");
    form.set("file", new File([new Uint8Array(11 * 1024 * 1024)], "big.png", { type: "image/png" }));
    const upload = await app("/api/user/media/uploadMedia", { method: "POST", headers: bearer(user.tokens), body: form });
    expect(upload.status).toBe(413);
    expect((await read(upload)).error).not.toBe(BODY_TOO_LARGE_MESSAGE);
  });
});
