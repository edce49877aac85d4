import { describe, expect, it } from "vitest";
import { AI_IMAGE_REFUSED } from "../../../workers/ai/images.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { grantCredits, remainingCredits } from "../pinterest/scheduling-support.ts";
import { app, read, sandbox } from "../support.ts";

// Issue 40 point 15: AI pictures, priced at 12 credits (spec section 9), made with OpenAI's image API (the
// stand-in draws a real, deterministic PNG), charged once on the server, kept in the media library.

const GENERATE = "/api/openAI/generateImage";
const generate = (user: TestUser, body: unknown) => app(GENERATE, json(body, bearer(user.tokens)));
const library = async (user: TestUser) =>
  (await read(await app("/api/user/media/getUserMedia?mediaType=image", { headers: bearer(user.tokens) }))).media as { id: string; url: string }[];

interface ImageRequest {
  path: string;
  body: { model: string; prompt: string; size: string };
}
const imageRequestsFor = async (words: string) =>
  (await sandbox<ImageRequest[]>("/requests?service=openai")).filter(
    (request) => request.path === "/v1/images/generations" && request.body.prompt.includes(words),
  );

describe("AI pictures for pins", () => {
  it("draws a portrait picture, keeps it in the media library and charges 12 credits once per reference", async () => {
    const user = await signUpUser();
    await grantCredits(user, 20);
    const before = await remainingCredits(user);
    const words = `A sunlit reading nook with a green armchair ${Date.now().toString(36)}`;
    const first = await generate(user, { prompt: words, reference: `img-${words.length}-${Date.now()}` });
    expect(first.status).toBe(200);
    const { image } = await read(first);
    expect(image).toMatchObject({ mediaType: "image", contentType: "image/png", width: 1024, height: 1536 });
    expect(await remainingCredits(user)).toBe(before - 12);

    // A real picture, served to its owner.
    const served = await app(new URL(image.url).pathname, { headers: bearer(user.tokens) });
    expect(served.status).toBe(200);
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect((await library(user)).map((item) => item.id)).toContain(image.id);

    // OpenAI was asked once, in the pin's shape, with the user's words.
    const asked = await imageRequestsFor(words);
    expect(asked).toHaveLength(1);
    expect(asked[0].body).toMatchObject({ model: "gpt-image-1", size: "1024x1536" });
  });

  it("answers a replay of the same request with the same picture and no second charge", async () => {
    const user = await signUpUser();
    await grantCredits(user, 30);
    const words = `Autumn soup on a wooden table ${Date.now().toString(36)}`;
    const body = { prompt: words, reference: `img-replay-${Date.now()}` };
    const first = (await read(await generate(user, body))).image;
    const credits = await remainingCredits(user);
    const again = (await read(await generate(user, body))).image;
    expect(again.id).toBe(first.id);
    expect(await remainingCredits(user)).toBe(credits);
    expect(await imageRequestsFor(words)).toHaveLength(1);
    expect((await library(user)).filter((item) => item.id === first.id)).toHaveLength(1);
  });

  it("leaves nothing behind and charges nothing when the AI refuses, the credits do not cover it, or nothing is asked", async () => {
    const user = await signUpUser();
    await grantCredits(user, 20);
    const before = await remainingCredits(user);
    const refused = await generate(user, { prompt: "Something it will not draw [sandbox:refuse]", reference: `img-refused-${Date.now()}` });
    expect(refused.status).toBe(400);
    expect(await read(refused)).toEqual({ error: AI_IMAGE_REFUSED, field: "prompt" });
    expect(await remainingCredits(user)).toBe(before);
    expect(await library(user)).toEqual([]);

    const empty = await generate(user, { prompt: "   " });
    expect(empty.status).toBe(400);
    expect(await read(empty)).toMatchObject({ error: "Please say what the picture should show.", field: "prompt" });

    // A Free user's 10 credits do not pay for 12: refused before OpenAI is asked.
    const poor = await signUpUser();
    const words = `A lake at dawn ${Date.now().toString(36)}`;
    const unpaid = await generate(poor, { prompt: words });
    expect(unpaid.status).toBe(402);
    expect(await imageRequestsFor(words)).toEqual([]);
    expect(await library(poor)).toEqual([]);
  });
});
