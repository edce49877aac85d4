import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { fitToBounds } from "../../../workers/ai/bounds.ts";
import { altTextMessages, rewriteMessages } from "../../../workers/ai/prompts.ts";
import { completeChat } from "../../../workers/integrations/openai.ts";
import { ProviderError } from "../../../workers/integrations/http.ts";
import { useSandbox } from "../../support/sandbox.ts";

// The OpenAI stand-in, driven by the official SDK and by our integration, as the worker drives it.
const sandbox = useSandbox();
const env = () => ({ OPENAI_API_KEY: "sk-unit-test-key-0123", OPENAI_BASE_URL: `${sandbox.url}/openai/v1` });

const titleAsk = (text: string, extra: Partial<Parameters<typeof rewriteMessages>[0]> = {}) =>
  rewriteMessages({ text, kind: "title", keywords: [], language: "English", tone: "Neutral", ...extra });

describe("the OpenAI stand-in", () => {
  it("answers the real chat completion shape to the official SDK, n choices with usage", async () => {
    const client = new OpenAI({ apiKey: env().OPENAI_API_KEY, baseURL: env().OPENAI_BASE_URL, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages: titleAsk("Cozy autumn soup for rainy evenings"), n: 3 });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("gpt-4o-mini");
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(completion.choices.every((choice) => choice.finish_reason === "stop" && choice.message.role === "assistant")).toBe(true);
    expect(new Set(completion.choices.map((choice) => choice.message.content)).size).toBe(3);
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it("refuses a missing or malformed API key with 401, and records requests with the key masked", async () => {
    const noKey = await fetch(`${sandbox.url}/openai/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(noKey.status).toBe(401);
    await expect(
      completeChat({ ...env(), OPENAI_API_KEY: "bad key!" }, { model: "m", messages: titleAsk("x"), maxCompletionTokens: 50 }),
    ).rejects.toMatchObject({
      status: 401,
    });
    const requests = await (await fetch(`${sandbox.url}/__sandbox/requests?service=openai`)).json();
    expect(requests.at(-1).headers.authorization).toBe("****key!");
  });

  it("answers 400 in OpenAI's error shape for a bad request", async () => {
    const response = await fetch(`${sandbox.url}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-unit-test-key" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [], n: 1 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error", param: "messages" } });
  });

  it("writes titles under the asked limit, in the asked tone and language, with a keyword", async () => {
    const answers = await completeChat(env(), {
      model: "gpt-4o-mini",
      messages: titleAsk("The coziest autumn soup recipe for rainy weekday evenings", { tone: "Playful", language: "Spanish", keywords: ["pumpkin soup"] }),
      n: 4,
      maxCompletionTokens: 80,
    });
    expect(answers).toHaveLength(4);
    for (const answer of answers) {
      expect(answer.length).toBeLessThan(40);
      expect(answer.startsWith("Fun ")).toBe(true);
      expect(answer).toContain("Pumpkin soup");
      expect(answer.endsWith("[es]")).toBe(true);
    }
  });

  it("writes descriptions between the asked bounds that include every keyword", async () => {
    const answers = await completeChat(env(), {
      model: "gpt-4o-mini",
      messages: rewriteMessages({
        text: "A cozy autumn soup.",
        kind: "description",
        keywords: ["pumpkin", "fall dinner"],
        language: "English",
        tone: "Luxurious",
      }),
      n: 2,
      maxCompletionTokens: 400,
    });
    for (const answer of answers) {
      expect(answer.length).toBeGreaterThan(200);
      expect(answer.length).toBeLessThan(500);
      expect(answer).toContain("pumpkin");
      expect(answer).toContain("fall dinner");
      expect(answer).toContain("indulgent");
    }
  });

  it("does not repeat the answers it is told not to repeat", async () => {
    const first = await completeChat(env(), { model: "m", messages: titleAsk("Easy weeknight pasta"), n: 2, maxCompletionTokens: 80 });
    const second = await completeChat(env(), { model: "m", messages: titleAsk("Easy weeknight pasta", { avoid: first }), n: 2, maxCompletionTokens: 80 });
    expect(second.filter((answer) => first.includes(answer))).toEqual([]);
  });

  it("describes an image from its URL, and refuses an image URL it cannot open", async () => {
    const [alt] = await completeChat(env(), {
      model: "gpt-4o-mini",
      messages: altTextMessages("https://blog.example.com/images/cozy-autumn-soup_1200x800.jpg", "French"),
      maxCompletionTokens: 300,
    });
    expect(alt).toBe("A photo showing cozy autumn soup, from blog.example.com. [fr]");
    await expect(completeChat(env(), { model: "m", messages: altTextMessages("ftp://x/y.jpg", "English"), maxCompletionTokens: 300 })).rejects.toMatchObject({
      status: 400,
    });
  });

  it("misbehaves on request: planned for matching requests, or by a magic word", async () => {
    const planned = await fetch(`${sandbox.url}/__sandbox/openai/behaviour`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mode: "repeat", times: 1, match: "Lemon cake" }),
    });
    expect(planned.status).toBe(201);
    const other = await completeChat(env(), { model: "m", messages: titleAsk("Banana bread"), n: 3, maxCompletionTokens: 80 });
    expect(new Set(other).size).toBe(3);
    const repeated = await completeChat(env(), { model: "m", messages: titleAsk("Lemon cake"), n: 3, maxCompletionTokens: 80 });
    expect(new Set(repeated).size).toBe(1);
    const after = await completeChat(env(), { model: "m", messages: titleAsk("Lemon cake"), n: 3, maxCompletionTokens: 80 });
    expect(new Set(after).size).toBe(3);

    const [long] = await completeChat(env(), { model: "m", messages: titleAsk("Lemon cake [sandbox:too-long]"), maxCompletionTokens: 80 });
    expect(fitToBounds(long, "title")).toMatchObject({ ok: false, reason: "tooLong" });
    const [slightly] = await completeChat(env(), { model: "m", messages: titleAsk("Lemon cake [sandbox:slightly-long]"), maxCompletionTokens: 80 });
    expect(slightly.length).toBeGreaterThan(44);
    expect(fitToBounds(slightly, "title").ok).toBe(true);
    const [decorated] = await completeChat(env(), { model: "m", messages: titleAsk("Lemon cake [sandbox:decorated]"), maxCompletionTokens: 80 });
    expect(decorated).toMatch(/^Title: ".*"$/);
    const [empty] = await completeChat(env(), { model: "m", messages: titleAsk("Lemon cake [sandbox:empty]"), maxCompletionTokens: 80 });
    expect(empty).toBe("");

    const refused = await fetch(`${sandbox.url}/__sandbox/openai/behaviour`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"mode":"sleepy"}',
    });
    expect(refused.status).toBe(400);
  });
});

describe("the OpenAI integration", () => {
  it("retries a server error once after a short backoff", async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "openai", status: 500 }),
    });
    const answers = await completeChat(env(), { model: "m", messages: titleAsk("Garden ideas"), maxCompletionTokens: 80 });
    expect(answers).toHaveLength(1);
    const requests = await (await fetch(`${sandbox.url}/__sandbox/requests?service=openai`)).json();
    expect(requests).toHaveLength(2);
  });

  it("retries a timed-out call once", async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "openai", delayMs: 1500 }),
    });
    const answers = await completeChat(env(), { model: "m", messages: titleAsk("Garden paths"), maxCompletionTokens: 80, timeoutMs: 300 });
    expect(answers).toHaveLength(1);
    const requests = await (await fetch(`${sandbox.url}/__sandbox/requests?service=openai`)).json();
    expect(requests).toHaveLength(2);
  });

  it("gives up after the one retry, and does not retry a rate limit", async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "openai", status: 503, times: 5 }),
    });
    const failure = await completeChat(env(), { model: "m", messages: titleAsk("Garden ideas"), maxCompletionTokens: 80 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ status: 503 });
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "openai", status: 429, times: 5 }),
    });
    await expect(completeChat(env(), { model: "m", messages: titleAsk("Garden ideas"), maxCompletionTokens: 80 })).rejects.toMatchObject({ status: 429 });
    const requests = await (await fetch(`${sandbox.url}/__sandbox/requests?service=openai`)).json();
    expect(requests).toHaveLength(3);
  });
});
