import { beforeAll, describe, expect, it } from "vitest";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";

// AI copy (spec section 7, AI) against the sandbox's OpenAI stand-in. The sandbox is shared with other
// test files, so nothing here resets it: each test uses its own text and finds its own requests by it.

const REWRITE = "/api/openAI/rewriteText";
const NO_DUPLICATES = "/highMemLimitApi/openAI/rewriteTextNoDuplicates";
const NO_DUPLICATES_FREE = "/highMemLimitApi/openAI/rewriteTextNoDuplicatesFree";
const ALT_TEXT = "/api/openAI/getAltTextFromImage";

interface RecordedRequest {
  path: string;
  body: { model: string; n: number; messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[] };
}
interface LedgerRow {
  amount: number;
  category: string;
  reason: string;
  reference: string;
}

let runs = 0;
/** A text no other test sends, so its requests and planned misbehaviours are this test's alone. */
function uniqueText(base: string) {
  runs += 1;
  return `${base} ${Date.now().toString(36)}${runs}`;
}

function post(path: string, user: TestUser, body: unknown) {
  return app(path, json(body, bearer(user.tokens)));
}

const textOf = (content: RecordedRequest["body"]["messages"][number]["content"]) =>
  typeof content === "string" ? content : content.map((part) => part.text ?? part.image_url?.url ?? "").join("\n");

/** The chat completions the worker sent for a text. */
async function openAIRequestsFor(text: string): Promise<RecordedRequest[]> {
  const requests = await sandbox<RecordedRequest[]>("/requests?service=openai");
  return requests.filter((r) => r.path === "/v1/chat/completions" && r.body?.messages?.some((m) => textOf(m.content).includes(text)));
}

/** The user's spends (the ledger also holds the plan's monthly grants). */
async function ledger(user: TestUser): Promise<LedgerRow[]> {
  const { results } = await ledgerOf(testEnv, user.userId)
    .prepare("SELECT amount, category, reason, reference FROM credit_ledger WHERE user_id = ? AND amount < 0 ORDER BY created_at")
    .bind(user.userId)
    .all<LedgerRow>();
  return results;
}

const misbehave = (mode: string, match: string, times = 1) => sandbox("/openai/behaviour", { method: "POST", json: { mode, match, times } });
const fault = (status: number, times: number) =>
  sandbox("/faults", { method: "POST", json: { service: "openai", path: "/v1/chat/completions", status, times } });
const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?…]+$/, "");

describe("rewriting titles and descriptions", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser();
  });

  it("answers numResults titles, each under 40 characters, and charges 0.5 credit per title", async () => {
    const prompt = uniqueText("The Coziest Autumn Soup Recipe for Rainy Weekday Evenings");
    const response = await post(REWRITE, user, { prompt, numResults: 3, kind: "title" });
    expect(response.status).toBe(200);
    const { results } = await read(response);
    expect(results).toHaveLength(3);
    for (const title of results) {
      expect(typeof title).toBe("string");
      expect(title.length).toBeGreaterThan(0);
      expect([...title].length).toBeLessThan(40);
    }
    const [request] = await openAIRequestsFor(prompt);
    expect(request.body.n).toBe(3);
    expect(request.body.model).toBe(testEnv.OPENAI_MODEL);
    expect(textOf(request.body.messages[0].content)).toContain("under 40 characters");
    expect(await ledger(user)).toContainEqual(expect.objectContaining({ amount: -1.5, category: "aiText", reason: "AI title rewrite" }));
  });

  it("answers descriptions over 200 and under 500 characters that include every keyword", async () => {
    const prompt = uniqueText("Ten weeknight dinners that are quick, healthy and cheap.");
    const response = await post(REWRITE, user, { prompt, numResults: 2, kind: "description", keywords: "pumpkin soup\n\n  one pot dinner \n" });
    expect(response.status).toBe(200);
    const { results } = await read(response);
    expect(results).toHaveLength(2);
    for (const description of results) {
      expect([...description].length).toBeGreaterThan(200);
      expect([...description].length).toBeLessThan(500);
      expect(description).toContain("pumpkin soup");
      expect(description).toContain("one pot dinner");
    }
    const [request] = await openAIRequestsFor(prompt);
    expect(textOf(request.body.messages[1].content)).toContain('Include each of these keywords: "pumpkin soup"; "one pot dinner".');
  });

  it("puts a title's keywords in the prompt and each title carries one of them; blank keywords ask for a free rewrite", async () => {
    const prompt = uniqueText("Easy banana bread");
    const { results } = await read(await post(REWRITE, user, { prompt, numResults: 2, kind: "title", keywords: "moist loaf\nbreakfast" }));
    for (const title of results) expect(title.toLowerCase().includes("moist loaf") || title.toLowerCase().includes("breakfast")).toBe(true);

    const free = uniqueText("Easy lemon cake");
    expect((await post(REWRITE, user, { prompt: free, keywords: " \n " })).status).toBe(200);
    const [request] = await openAIRequestsFor(free);
    expect(textOf(request.body.messages[1].content)).toContain("No keywords are required: write a free rewrite.");
  });

  it("sends the language and tone in the system prompt, English and Neutral by default, and the answers follow them", async () => {
    const prompt = uniqueText("Small balcony garden ideas");
    const { results } = await read(await post(REWRITE, user, { prompt, numResults: 2, language: "Spanish", tone: "Playful" }));
    const [request] = await openAIRequestsFor(prompt);
    const system = request.body.messages.find((m) => m.role === "system")!;
    expect(textOf(system.content)).toContain("Write in Spanish.");
    expect(textOf(system.content)).toContain("Use a Playful tone.");
    for (const title of results) {
      expect(title.startsWith("Fun ")).toBe(true);
      expect(title.endsWith("[es]")).toBe(true);
    }

    const plain = uniqueText("Small kitchen storage ideas");
    const { results: defaults } = await read(await post(REWRITE, user, { prompt: plain }));
    expect(defaults).toHaveLength(1);
    const [defaultRequest] = await openAIRequestsFor(plain);
    const defaultSystem = textOf(defaultRequest.body.messages[0].content);
    expect(defaultSystem).toContain("Write in English.");
    expect(defaultSystem).toContain("Use a Neutral tone.");
  });
});

describe("answers outside the bounds", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser();
  });

  it("repairs a slightly long title by cutting it where a clause ends (never mid-phrase)", async () => {
    const prompt = uniqueText("Crispy roast potatoes");
    await misbehave("slightly-long", prompt);
    const response = await post(REWRITE, user, { prompt, numResults: 2 });
    expect(response.status).toBe(200);
    const { results } = await read(response);
    expect(results).toHaveLength(2);
    for (const title of results) expect([...title].length).toBeLessThan(40);
    expect(await openAIRequestsFor(prompt)).toHaveLength(1);
  });

  it("strips quotes and a Title: label", async () => {
    const prompt = uniqueText("Crispy roast carrots");
    await misbehave("decorated", prompt);
    const { results } = await read(await post(REWRITE, user, { prompt }));
    expect(results[0]).not.toMatch(/^Title:|"/);
  });

  it("asks again when an answer is far too long, and delivers only answers within bounds", async () => {
    const prompt = uniqueText("Crispy roast parsnips");
    await misbehave("too-long", prompt);
    const response = await post(REWRITE, user, { prompt, numResults: 2 });
    expect(response.status).toBe(200);
    const { results } = await read(response);
    expect(results).toHaveLength(2);
    for (const title of results) expect([...title].length).toBeLessThan(40);
    expect(await openAIRequestsFor(prompt)).toHaveLength(2);
  });

  it("answers 502 with a clear message and charges nothing when the answers stay too long", async () => {
    const prompt = uniqueText("Crispy roast beets");
    const reference = `ai-too-long-${Date.now()}`;
    await misbehave("too-long", prompt, 3);
    const before = await ledger(user);
    const response = await post(REWRITE, user, { prompt, numResults: 2, reference });
    expect(response.status).toBe(502);
    expect(await read(response)).toEqual({ error: "The AI could not write a title under 40 characters. Please try again." });
    expect(await openAIRequestsFor(prompt)).toHaveLength(3);
    expect(await ledger(user)).toEqual(before);
  });

  it("answers 502 when descriptions stay too short", async () => {
    const prompt = uniqueText("Roast vegetables in one tray.");
    await misbehave("too-short", prompt, 3);
    const response = await post(REWRITE, user, { prompt, kind: "description" });
    expect(response.status).toBe(502);
    expect((await read(response)).error).toBe("The AI could not write a description between 200 and 500 characters. Please try again.");
  });

  it("answers 502 when the AI answers nothing", async () => {
    const prompt = uniqueText("Roast garlic");
    await misbehave("empty", prompt, 3);
    const response = await post(REWRITE, user, { prompt });
    expect(response.status).toBe(502);
    expect((await read(response)).error).toBe("The AI answered without any text. Please try again.");
  });
});

describe("rewrites without duplicates", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser();
  });

  it("never answers two equal results even when the AI repeats itself, asking again for the missing ones", async () => {
    const prompt = uniqueText("Homemade pizza dough");
    await misbehave("repeat", prompt);
    const response = await post(NO_DUPLICATES, user, { prompt, numResults: 4 });
    expect(response.status).toBe(200);
    const { results } = await read(response);
    expect(results).toHaveLength(4);
    expect(new Set(results.map(comparable)).size).toBe(4);
    expect(results.map(comparable)).not.toContain(comparable(prompt));
    const requests = await openAIRequestsFor(prompt);
    expect(requests).toHaveLength(2);
    expect(requests[1].body.n).toBe(3);
    expect(textOf(requests[1].body.messages[1].content)).toContain(`Do not repeat any of these: "${results[0]}"`);
    expect(await ledger(user)).toContainEqual(expect.objectContaining({ amount: -2, category: "aiText" }));
  });

  it("answers 502 rather than repeat itself when the AI keeps repeating, and charges nothing", async () => {
    const prompt = uniqueText("Homemade pasta");
    await misbehave("repeat", prompt, 3);
    const before = await ledger(user);
    const response = await post(NO_DUPLICATES, user, { prompt, numResults: 3 });
    expect(response.status).toBe(502);
    expect((await read(response)).error).toMatch(/repeating itself/);
    expect(await ledger(user)).toEqual(before);
  });

  it("the free route charges nothing", async () => {
    const prompt = uniqueText("Homemade bagels");
    const before = await ledger(user);
    const response = await post(NO_DUPLICATES_FREE, user, { prompt, numResults: 3, kind: "description" });
    expect(response.status).toBe(200);
    const { results } = await read(response);
    expect(new Set(results.map(comparable)).size).toBe(3);
    expect(await ledger(user)).toEqual(before);
  });
});

describe("provider failures", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser();
  });

  it("retries a 503 from OpenAI once and succeeds", async () => {
    const prompt = uniqueText("Weekend hiking checklist");
    await fault(503, 1);
    const response = await post(REWRITE, user, { prompt });
    expect(response.status).toBe(200);
    expect((await read(response)).results).toHaveLength(1);
    expect(await openAIRequestsFor(prompt)).toHaveLength(2);
  });

  it("answers 502 with a clear message and charges nothing when OpenAI keeps failing", async () => {
    const prompt = uniqueText("Weekend camping checklist");
    await fault(503, 2);
    const before = await ledger(user);
    const response = await post(REWRITE, user, { prompt, numResults: 2 });
    expect(response.status).toBe(502);
    expect(await read(response)).toEqual({ error: "The AI service is unavailable, please try again." });
    expect(await openAIRequestsFor(prompt)).toHaveLength(2);
    expect(await ledger(user)).toEqual(before);
  });

  it("answers 503 when OpenAI is rate limited, without retrying", async () => {
    const prompt = uniqueText("Weekend fishing checklist");
    await fault(429, 1);
    const response = await post(NO_DUPLICATES, user, { prompt });
    expect(response.status).toBe(503);
    expect((await read(response)).error).toBe("The AI service is busy right now, please try again in a minute.");
    expect(await openAIRequestsFor(prompt)).toHaveLength(1);
  });
});

describe("alt text", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser();
  });

  it("describes the image in the asked language and charges 2 credits", async () => {
    const imageURL = `https://blog.example.com/images/cozy-autumn-soup-${Date.now()}.jpg`;
    const response = await post(ALT_TEXT, user, { imageURL, aiLanguage: "French" });
    expect(response.status).toBe(200);
    const { altText } = await read(response);
    // The stand-in's answer names the host ("…, from blog.example.com."): alt text describes the picture only (issue 40 point 3).
    expect(altText).toBe("A photo showing cozy autumn soup. [fr]");
    const [request] = await openAIRequestsFor(imageURL);
    expect(request.body.model).toBe(testEnv.OPENAI_VISION_MODEL);
    const user_ = request.body.messages.find((m) => m.role === "user")!;
    expect(user_.content).toContainEqual({ type: "image_url", image_url: { url: imageURL, detail: "low" } });
    expect(await ledger(user)).toContainEqual(expect.objectContaining({ amount: -2, category: "aiAltText", reason: "AI alt text" }));
  });

  it("makes a path on our own site absolute", async () => {
    const response = await post(ALT_TEXT, user, { imageURL: "/media/users/someone/garden-bench.png" });
    expect(response.status).toBe(200);
    expect((await read(response)).altText).toBe("A photo showing garden bench.");
    // OpenAI was given the absolute address (the alt text itself names no host).
    const [request] = await openAIRequestsFor("http://app.test/media/users/someone/garden-bench.png");
    const user_ = request.body.messages.find((m) => m.role === "user")!;
    expect(user_.content).toContainEqual({ type: "image_url", image_url: { url: "http://app.test/media/users/someone/garden-bench.png", detail: "low" } });
  });

  it("fails without charging when OpenAI keeps failing, so the client keeps the existing text", async () => {
    const reference = `alt-fail-${Date.now()}`;
    await fault(500, 2);
    const before = await ledger(user);
    const response = await post(ALT_TEXT, user, { imageURL: "https://blog.example.com/images/broken.jpg", reference });
    expect(response.status).toBe(502);
    expect((await read(response)).error).toBe("The AI service is unavailable, please try again.");
    expect(await ledger(user)).toEqual(before);
  });

  it("refuses an image address that is not http or https", async () => {
    const response = await post(ALT_TEXT, user, { imageURL: "ftp://files.example.com/a.jpg" });
    expect(response.status).toBe(400);
    expect(await read(response)).toEqual({ error: "imageURL must be an http or https URL", field: "imageURL" });
  });
});

describe("credits", () => {
  it("are charged once per reference: a retried request is not charged twice", async () => {
    const user = await signUpUser();
    const reference = `rewrite-${Date.now()}-once`;
    const prompt = uniqueText("Spring wreath");
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await post(REWRITE, user, { prompt, numResults: 4, reference });
      expect(response.status).toBe(200);
    }
    const altReference = `alt-${Date.now()}-once`;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await post(ALT_TEXT, user, { imageURL: "https://x.example.com/wreath.jpg", reference: altReference })).status).toBe(200);
    }
    // Each charge is named after its request (operation and claim), never after the client's key.
    expect(await ledger(user)).toEqual([
      { amount: -2, category: "aiText", reason: "AI title rewrite", reference: expect.stringMatching(/^rewriteText:[0-9a-f-]{36}$/) },
      { amount: -2, category: "aiAltText", reason: "AI alt text", reference: expect.stringMatching(/^getAltTextFromImage:[0-9a-f-]{36}$/) },
    ]);
  });
});

describe("bad input and signed-out callers", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser();
  });

  it.each([
    [{ numResults: 1 }, "prompt", "prompt is required"],
    [{ prompt: "   " }, "prompt", "prompt is required"],
    [{ prompt: "Soup", numResults: 0 }, "numResults", "numResults must be at least 1"],
    [{ prompt: "Soup", numResults: 11 }, "numResults", "numResults must be at most 10"],
    [{ prompt: "Soup", numResults: 1.5 }, "numResults", "numResults must be a whole number"],
    [{ prompt: "Soup", language: "Klingon" }, "language", "language is not a supported language"],
    [{ prompt: "Soup", tone: "Grumpy" }, "tone", "tone is not a supported tone"],
    [{ prompt: "Soup", kind: "caption" }, "kind", "kind must be title or description"],
  ])("rewrites refuse %j naming %s", async (body, field, error) => {
    for (const path of [REWRITE, NO_DUPLICATES, NO_DUPLICATES_FREE]) {
      const response = await post(path, user, body);
      expect(response.status).toBe(400);
      expect(await read(response)).toEqual({ error, field });
    }
  });

  it("alt text refuses a missing image and an unknown language", async () => {
    const missing = await post(ALT_TEXT, user, {});
    expect(missing.status).toBe(400);
    expect(await read(missing)).toEqual({ error: "imageURL is required", field: "imageURL" });
    const language = await post(ALT_TEXT, user, { imageURL: "https://x.example.com/a.jpg", aiLanguage: "Elvish" });
    expect(await read(language)).toEqual({ error: "aiLanguage is not a supported language", field: "aiLanguage" });
  });

  it("requires a signed-in user on every AI route", async () => {
    for (const path of [REWRITE, NO_DUPLICATES, NO_DUPLICATES_FREE, ALT_TEXT]) {
      const response = await app(path, json({ prompt: "Soup", imageURL: "https://x.example.com/a.jpg" }));
      expect(response.status).toBe(401);
      expect(await read(response)).toEqual({ error: "Please log in to continue." });
    }
  });
});
