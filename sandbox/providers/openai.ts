import { Hono, type Context } from "hono";
import { encodePng } from "../../workers/render/overlay.ts";
import type { Bitmap } from "../../workers/render/pixels.ts";
import { providerState, type SandboxState } from "../state.ts";

/**
 * Stand-in for OpenAI's chat completions (https://platform.openai.com/docs/api-reference/chat/create):
 *
 * - `POST /v1/chat/completions` with a bearer API key and {model, messages, n, max_completion_tokens,
 *   temperature}; user messages may carry `image_url` content parts (vision). Answers the real shape:
 *   {id: "chatcmpl-...", object: "chat.completion", created, model, choices[{index, message{role,
 *   content}, finish_reason}], usage{prompt_tokens, completion_tokens, total_tokens}}.
 * - `GET /v1/models`: the models it answers for (any model name is accepted).
 * - `POST /v1/images/generations` {model, prompt, size, n}: {created, data[{b64_json}], usage}, a real PNG drawn
 *   deterministically from the prompt (a sky, a sun, hills); "[sandbox:refuse]" in the prompt answers the safety
 *   system's 400.
 *
 * It writes deterministically from what it is asked, reading the instructions a real model would
 * follow: the text between triple quotes after "Rewrite this pin title|description:", "Write in
 * <Language>." (answers in another language than English end with a tag such as "[es]"), "Use a
 * <Tone> tone." (titles start with the tone's word, e.g. "Fun" for Playful; descriptions carry the
 * tone's sentence), "Include one|each of these keywords: ...", "Do not repeat any of these: ..." and
 * the character limits. Titles stay under the asked limit, descriptions land between the asked bounds.
 * Alt text describes the image from its URL (the file name's words and the host).
 *
 * Tests make it misbehave with `POST /__sandbox/openai/behaviour` {mode, times?, match?} (the next
 * `times` completions whose messages contain `match`), or with `[sandbox:<mode>]` in the text to
 * rewrite (every such request). Modes: too-long, slightly-long, too-short, decorated (wrapped in
 * quotes and a "Title:" label), repeat (every choice the same, the do-not-repeat list ignored), empty.
 */
export const OPENAI_MISBEHAVIOURS = ["too-long", "slightly-long", "too-short", "decorated", "repeat", "empty"] as const;
export type OpenAIMisbehaviour = (typeof OPENAI_MISBEHAVIOURS)[number];

interface PlannedMisbehaviour {
  mode: OpenAIMisbehaviour;
  remaining: number;
  match?: string;
}

interface OpenAIState {
  behaviours: PlannedMisbehaviour[];
}

const openAIState = (state: SandboxState) => providerState<OpenAIState>(state, "openai", () => ({ behaviours: [] }));

export function openAIProvider(state: SandboxState): Hono {
  const app = new Hono();

  app.use("/v1/*", async (c, next) => {
    const key = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (!key) {
      return openAIError(
        c,
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        null,
      );
    }
    if (!/^[A-Za-z0-9_-]{8,}$/.test(key)) {
      return openAIError(c, 401, `Incorrect API key provided: ${key.slice(0, 3)}****${key.slice(-4)}.`, "invalid_api_key");
    }
    await next();
  });

  app.get("/v1/models", (c) =>
    c.json({
      object: "list",
      data: ["gpt-4o-mini", "gpt-4o"].map((id) => ({ id, object: "model", created: 1_721_172_741, owned_by: "system" })),
    }),
  );

  app.post("/v1/chat/completions", async (c) => {
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
    } catch {
      return openAIError(c, 400, "We could not parse the JSON body of your request.", null, "invalid_request_error");
    }
    const problem = requestProblem(body);
    if (problem) return openAIError(c, 400, problem.message, problem.code, "invalid_request_error", problem.param);
    if (body.stream === true) return openAIError(c, 400, "The sandbox stand-in does not stream: send stream false.", null, "invalid_request_error", "stream");

    const messages = body.messages as ChatMessage[];
    const ask = readAsk(messages);
    if (ask.kind === "altText" && !/^(https?:\/\/|data:image\/)/i.test(ask.imageUrl)) {
      return openAIError(c, 400, `Invalid image URL: ${ask.imageUrl.slice(0, 80)}`, "invalid_image_url", "invalid_request_error", "messages");
    }
    const n = typeof body.n === "number" ? body.n : 1;
    const mode = misbehaviourFor(state, messages, ask.text);
    const contents = answers(ask, n, mode);

    const maxTokens =
      typeof body.max_completion_tokens === "number" ? body.max_completion_tokens : typeof body.max_tokens === "number" ? body.max_tokens : null;
    const choices = contents.map((content, index) => {
      const cut = maxTokens !== null && content.length > maxTokens * 4;
      return {
        index,
        message: { role: "assistant", content: cut ? content.slice(0, maxTokens * 4) : content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: cut ? "length" : "stop",
      };
    });
    const promptTokens = tokens(JSON.stringify(messages));
    const completionTokens = choices.reduce((sum, choice) => sum + tokens(choice.message.content), 0);
    return c.json({
      id: `chatcmpl-${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: String(body.model),
      choices,
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      service_tier: "default",
      system_fingerprint: "fp_sandbox",
    });
  });

  // Images (https://platform.openai.com/docs/api-reference/images/create): gpt-image-1 answers base64 PNG.
  app.post("/v1/images/generations", async (c) => {
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
    } catch {
      return openAIError(c, 400, "We could not parse the JSON body of your request.", null, "invalid_request_error");
    }
    const prompt = typeof body.prompt === "string" ? body.prompt : "";
    if (!prompt.trim()) return openAIError(c, 400, "Missing required parameter: 'prompt'.", "missing_required_parameter", "invalid_request_error", "prompt");
    if (typeof body.model !== "string" || !body.model) {
      return openAIError(c, 400, "Missing required parameter: 'model'.", "missing_required_parameter", "invalid_request_error", "model");
    }
    const size = typeof body.size === "string" ? body.size : "1024x1024";
    const match = /^(\d+)x(\d+)$/.exec(size);
    if (!match || !IMAGE_SIZES.has(size)) {
      return openAIError(
        c,
        400,
        `Invalid value: '${size}'. Supported values are: ${[...IMAGE_SIZES].map((v) => `'${v}'`).join(", ")}.`,
        "invalid_value",
        "invalid_request_error",
        "size",
      );
    }
    // "[sandbox:refuse]" stands for a prompt OpenAI's safety system turns down.
    if (/\[sandbox:refuse\]/.test(prompt)) {
      return openAIError(c, 400, "Your request was rejected as a result of our safety system.", "moderation_blocked", "invalid_request_error", "prompt");
    }
    const png = encodePng(scene(prompt, Number(match[1]), Number(match[2])));
    return c.json({
      created: Math.floor(Date.now() / 1000),
      data: [{ b64_json: Buffer.from(png).toString("base64") }],
      usage: { input_tokens: tokens(prompt), output_tokens: 1056, total_tokens: tokens(prompt) + 1056 },
    });
  });

  return app;
}

const IMAGE_SIZES = new Set(["1024x1024", "1024x1536", "1536x1024", "auto"]);

/**
 * A real, deterministic picture for a prompt: a sky in two colours, a sun and rolling hills, all chosen by a hash
 * of the words (the same prompt always draws the same picture; another prompt another one).
 */
function scene(prompt: string, width: number, height: number): Bitmap {
  let hash = 2166136261;
  for (let i = 0; i < prompt.length; i += 1) hash = Math.imul(hash ^ prompt.charCodeAt(i), 16777619) >>> 0;
  const pick = (shift: number, span: number) => ((hash >>> shift) % span) / span;
  const hue = pick(0, 360) * 360;
  const colour = (h: number, s: number, l: number) => {
    const k = (n: number) => (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return [0, 8, 4].map((n) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1)))));
  };
  const [top, bottom, sun, hill] = [colour(hue, 0.6, 0.75), colour((hue + 40) % 360, 0.7, 0.55), colour(45, 0.9, 0.7), colour((hue + 180) % 360, 0.45, 0.35)];
  const sunX = width * (0.25 + pick(9, 50) / 100);
  const sunY = height * 0.3;
  const radius = width * 0.12;
  const data = new Uint8ClampedArray(width * height * 4);
  const horizon = height * 0.62;
  for (let y = 0; y < height; y += 1) {
    const t = y / height;
    for (let x = 0; x < width; x += 1) {
      const ground = horizon + height * 0.05 * Math.sin((x / width) * Math.PI * (2 + pick(17, 3)));
      const inSun = (x - sunX) ** 2 + (y - sunY) ** 2 < radius * radius;
      const rgb = y > ground ? hill : inSun ? sun : top.map((channel, i) => Math.round(channel + (bottom[i] - channel) * t));
      const at = (y * width + x) * 4;
      data[at] = rgb[0];
      data[at + 1] = rgb[1];
      data[at + 2] = rgb[2];
      data[at + 3] = 255;
    }
  }
  return { width, height, data } as Bitmap;
}

/**
 * Sandbox-only controls, mounted at /__sandbox/openai: `POST /behaviour` {mode, times?, match?}
 * plans a misbehaviour, `GET /behaviour` lists those planned, `DELETE /behaviour` clears them.
 */
export function openAIControl(state: SandboxState): Hono {
  const control = new Hono();
  control.get("/behaviour", (c) => c.json(openAIState(state).behaviours));
  control.delete("/behaviour", (c) => {
    openAIState(state).behaviours.length = 0;
    return c.json({ status: "cleared" });
  });
  control.post("/behaviour", async (c) => {
    let input: Record<string, unknown>;
    try {
      input = await c.req.json();
    } catch {
      return c.json({ error: "Body must be JSON" }, 400);
    }
    if (!input || typeof input !== "object") return c.json({ error: "Body must be a JSON object" }, 400);
    if (!OPENAI_MISBEHAVIOURS.includes(input.mode as OpenAIMisbehaviour))
      return c.json({ error: `mode must be one of ${OPENAI_MISBEHAVIOURS.join(", ")}` }, 400);
    if (input.times !== undefined && (!Number.isInteger(input.times) || (input.times as number) < 1))
      return c.json({ error: "times must be a positive integer" }, 400);
    if (input.match !== undefined && (typeof input.match !== "string" || !input.match)) return c.json({ error: "match must be a non-empty string" }, 400);
    const planned: PlannedMisbehaviour = {
      mode: input.mode as OpenAIMisbehaviour,
      remaining: typeof input.times === "number" ? input.times : 1,
      match: typeof input.match === "string" ? input.match : undefined,
    };
    openAIState(state).behaviours.push(planned);
    return c.json(planned, 201);
  });
  return control;
}

// ---- requests ---------------------------------------------------------------------------------

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: string } };
interface ChatMessage {
  role: string;
  content: string | ContentPart[] | null;
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

function requestProblem(body: Record<string, unknown>): { message: string; param: string; code: string | null } | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { message: "The body must be a JSON object.", param: "body", code: null };
  if (typeof body.model !== "string" || !body.model) return { message: "you must provide a model parameter", param: "model", code: null };
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return { message: "Invalid 'messages': empty array. Expected an array with minimum length 1.", param: "messages", code: "empty_array" };
  }
  for (const [index, message] of (body.messages as unknown[]).entries()) {
    const m = message as Partial<ChatMessage> | null;
    if (!m || typeof m !== "object" || !ROLES.has(String(m.role))) {
      return { message: `Invalid value for 'messages[${index}].role'.`, param: `messages[${index}].role`, code: "invalid_value" };
    }
    if (typeof m.content !== "string" && !Array.isArray(m.content) && m.content !== null) {
      return { message: `Invalid type for 'messages[${index}].content'.`, param: `messages[${index}].content`, code: "invalid_type" };
    }
    if (Array.isArray(m.content)) {
      for (const part of m.content as unknown[]) {
        const p = part as { type?: unknown; text?: unknown; image_url?: { url?: unknown } };
        const valid = (p?.type === "text" && typeof p.text === "string") || (p?.type === "image_url" && typeof p.image_url?.url === "string");
        if (!valid) return { message: `Invalid content part in 'messages[${index}].content'.`, param: `messages[${index}].content`, code: "invalid_value" };
      }
    }
  }
  if (body.n !== undefined && body.n !== null && (!Number.isInteger(body.n) || (body.n as number) < 1 || (body.n as number) > 128)) {
    return { message: "Invalid 'n': expected an integer between 1 and 128.", param: "n", code: "integer_out_of_range" };
  }
  for (const field of ["max_completion_tokens", "max_tokens"]) {
    if (body[field] !== undefined && body[field] !== null && (!Number.isInteger(body[field]) || (body[field] as number) < 1)) {
      return { message: `Invalid '${field}': expected a positive integer.`, param: field, code: "integer_below_min_value" };
    }
  }
  if (body.temperature !== undefined && body.temperature !== null && (typeof body.temperature !== "number" || body.temperature < 0 || body.temperature > 2)) {
    return { message: "Invalid 'temperature': expected a number between 0 and 2.", param: "temperature", code: "decimal_out_of_range" };
  }
  return null;
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (!message.content) return "";
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

type Ask =
  | {
      kind: "title" | "description" | "other";
      text: string;
      language: string;
      tone: string;
      keywords: string[];
      each: boolean;
      avoid: string[];
      limits: Limits;
    }
  | { kind: "altText"; text: string; imageUrl: string; language: string; tone: string; limits: Limits };

interface Limits {
  under?: number;
  over?: number;
  atMost?: number;
}

/** What the messages ask for, read the way a model reads its instructions. */
function readAsk(messages: ChatMessage[]): Ask {
  const instructions = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(textOf)
    .join("\n");
  const userMessages = messages.filter((m) => m.role === "user");
  const userText = userMessages.map(textOf).join("\n");
  const all = `${instructions}\n${userText}`;
  const language = /Write in ([A-Z][a-z]+)/.exec(all)?.[1] ?? "English";
  const tone = /Use an? ([A-Za-z]+) tone/.exec(all)?.[1] ?? "Neutral";
  const limits: Limits = {
    under: numberAfter(all, /under (\d+) characters/),
    over: numberAfter(all, /over (\d+)/),
    atMost: numberAfter(all, /at most (\d+) characters/),
  };

  const image = userMessages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((part): part is Extract<ContentPart, { type: "image_url" }> => part.type === "image_url");
  if (image) return { kind: "altText", text: userText, imageUrl: image.image_url.url, language, tone, limits };

  const kind = /Rewrite this pin (title|description)/i.exec(userText)?.[1]?.toLowerCase() as "title" | "description" | undefined;
  const text = /"""([\s\S]*?)"""/.exec(userText)?.[1] ?? userText;
  const keywordLine = /Include (one|each) of these keywords: (.*)\.\s*$/im.exec(userText);
  const avoidLine = /Do not repeat any of these: (.*)\.\s*$/im.exec(userText);
  return {
    kind: kind ?? "other",
    text,
    language,
    tone,
    keywords: keywordLine ? quotedItems(keywordLine[2]) : [],
    each: keywordLine?.[1]?.toLowerCase() === "each",
    avoid: [...(avoidLine ? quotedItems(avoidLine[1]) : []), text],
    limits,
  };
}

function numberAfter(text: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
}

function quotedItems(list: string): string[] {
  return [...list.matchAll(/"([^"]*)"/g)].map((match) => match[1].trim()).filter(Boolean);
}

function misbehaviourFor(state: SandboxState, messages: ChatMessage[], text: string): OpenAIMisbehaviour | null {
  const magic = /\[sandbox:([a-z-]+)\]/.exec(text)?.[1];
  if (magic && OPENAI_MISBEHAVIOURS.includes(magic as OpenAIMisbehaviour)) return magic as OpenAIMisbehaviour;
  const everything = messages.map(textOf).join("\n");
  const behaviours = openAIState(state).behaviours;
  const index = behaviours.findIndex((b) => !b.match || everything.includes(b.match));
  if (index < 0) return null;
  const planned = behaviours[index];
  planned.remaining -= 1;
  if (planned.remaining <= 0) behaviours.splice(index, 1);
  return planned.mode;
}

// ---- answers ----------------------------------------------------------------------------------

const LANGUAGE_TAGS: Record<string, string> = {
  Spanish: "es",
  French: "fr",
  German: "de",
  Italian: "it",
  Portuguese: "pt",
  Dutch: "nl",
  Swedish: "sv",
  Danish: "da",
  Norwegian: "no",
  Finnish: "fi",
  Polish: "pl",
  Czech: "cs",
  Romanian: "ro",
  Hungarian: "hu",
  Greek: "el",
  Turkish: "tr",
  Russian: "ru",
  Ukrainian: "uk",
  Japanese: "ja",
  Korean: "ko",
  Chinese: "zh",
  Hindi: "hi",
  Indonesian: "id",
  Arabic: "ar",
  Hebrew: "he",
};

/** The word a title opens with, per tone (none for Neutral). */
const TONE_WORDS: Record<string, string> = {
  Friendly: "Your",
  Professional: "Expert",
  Playful: "Fun",
  Persuasive: "Must-Try",
  Inspirational: "Inspiring",
  Informative: "Complete",
  Luxurious: "Luxe",
  Witty: "Clever",
};

/** The sentence a description carries, per tone. */
const TONE_SENTENCES: Record<string, string> = {
  Neutral: "Here is what you need to know.",
  Friendly: "We think you are going to love this one, friend.",
  Professional: "Our experts put this together with care and precision.",
  Playful: "Get ready for a little fun along the way!",
  Persuasive: "Do not miss out: this is the one to try next.",
  Inspirational: "Let it inspire your next big idea.",
  Informative: "It explains each step clearly, with the facts that matter.",
  Luxurious: "An indulgent, refined take made for those who love the finer things.",
  Witty: "Clever, quick and just a little bit cheeky.",
};

const DANGLING = new Set(["a", "an", "the", "and", "or", "of", "for", "to", "with", "in", "on", "at", "by", "your", "from"]);
const TITLE_SUFFIXES = [
  "",
  "Ideas",
  "Tips",
  "Guide",
  "Made Easy",
  "Secrets",
  "Essentials",
  "Inspiration",
  "Basics",
  "Favorites",
  "Checklist",
  "Hacks",
  "Done Right",
  "Simplified",
];
const DESCRIPTION_OPENERS = [
  "Discover",
  "Take a closer look at",
  "Get to know",
  "Explore",
  "Learn all about",
  "Dive into",
  "Find out more about",
  "Enjoy",
  "Make the most of",
  "Fall in love with",
  "Get inspired by",
  "Rediscover",
];
const DESCRIPTION_FILLERS = [
  "Save this pin for later so you can come back to it whenever you need it.",
  "Tap through to read the full post and get every detail.",
  "Share it with a friend who would love it too.",
  "It is simple, practical and easy to follow step by step.",
];

function answers(ask: Ask, n: number, mode: OpenAIMisbehaviour | null): string[] {
  if (mode === "empty") return Array.from({ length: n }, () => "");
  if (ask.kind === "altText") return Array.from({ length: n }, () => misbehave(altText(ask), "altText", mode));
  if (mode === "repeat") {
    // The same rewrite in every choice, whatever it was told not to repeat (but still not the text itself).
    const same = [0, 1].map((variant) => write(ask, variant)).find((candidate) => key(candidate) !== key(ask.text)) ?? write(ask, 1);
    return Array.from({ length: n }, () => same);
  }

  const avoid = new Set(ask.avoid.map(key));
  const out: string[] = [];
  for (let variant = 0; out.length < n && variant < n + ask.avoid.length + 50; variant += 1) {
    const candidate = write(ask, variant);
    if (avoid.has(key(candidate))) continue;
    avoid.add(key(candidate));
    out.push(misbehave(candidate, ask.kind, mode));
  }
  return out;
}

function key(text: string) {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

function write(ask: Extract<Ask, { kind: "title" | "description" | "other" }>, variant: number): string {
  const source = ask.text
    .replace(/\[sandbox:[a-z-]+\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const tag = LANGUAGE_TAGS[ask.language] ? ` [${LANGUAGE_TAGS[ask.language]}]` : "";
  if (ask.kind === "title") return title(source, ask, variant, tag);
  if (ask.kind === "description") return description(source, ask, variant, tag);
  return `${DESCRIPTION_OPENERS[variant % DESCRIPTION_OPENERS.length]}: ${source.slice(0, 200)}${tag}`;
}

function title(source: string, ask: Extract<Ask, { kind: "title" | "description" | "other" }>, variant: number, tag: string): string {
  const max = (ask.limits.under ?? 60) - 1;
  const toneWord = TONE_WORDS[ask.tone] ?? "";
  const keyword = ask.keywords.length > 0 ? ask.keywords[variant % ask.keywords.length] : "";
  const suffix = variant < TITLE_SUFFIXES.length ? TITLE_SUFFIXES[variant] : `No. ${variant + 1}`;
  const words = source
    .replace(/[.!?:;,]+(\s|$)/g, "$1")
    .split(" ")
    .filter(Boolean);
  const lead = [toneWord, keyword ? `${capitalise(keyword)}:` : ""].filter(Boolean);
  const trail = suffix ? [suffix] : [];
  const fixed = [...lead, ...trail].join(" ").length + tag.length;
  const core: string[] = [];
  for (const word of words) {
    if (fixed + [...core, word].join(" ").length + 1 > max) break;
    core.push(word);
  }
  while (core.length > 1 && DANGLING.has(core.at(-1)!.toLowerCase())) core.pop();
  if (core.length === 0 && words.length > 0) core.push(words[0]);
  return [...lead, ...core, ...trail].join(" ") + tag;
}

function description(source: string, ask: Extract<Ask, { kind: "title" | "description" | "other" }>, variant: number, tag: string): string {
  const max = (ask.limits.under ?? 500) - 1;
  const min = (ask.limits.over ?? 200) + 1;
  const target = Math.min(max, Math.max(min + 60, 300));
  const opener = variant < DESCRIPTION_OPENERS.length ? DESCRIPTION_OPENERS[variant] : `Idea ${variant + 1}: discover`;
  const core = sentence(`${opener} ${lowerFirst(wordsUpTo(source, 160))}`);
  const parts = [core];
  if (ask.keywords.length > 0) parts.push(sentence(`It is all about ${listed(ask.each ? ask.keywords : [ask.keywords[variant % ask.keywords.length]])}`));
  parts.push(TONE_SENTENCES[ask.tone] ?? TONE_SENTENCES.Neutral);
  for (const filler of DESCRIPTION_FILLERS) {
    const length = parts.join(" ").length + tag.length;
    if (length >= target) break;
    if (length + filler.length + 1 > max) break;
    parts.push(filler);
  }
  return parts.join(" ") + tag;
}

function altText(ask: Extract<Ask, { kind: "altText" }>): string {
  const tag = LANGUAGE_TAGS[ask.language] ? ` [${LANGUAGE_TAGS[ask.language]}]` : "";
  if (/^data:/i.test(ask.imageUrl)) return `A picture sent as inline image data.${tag}`;
  const url = new URL(ask.imageUrl);
  const file = decodeURIComponent(url.pathname.split("/").filter(Boolean).at(-1) ?? "").replace(/\.[a-z0-9]{2,5}$/i, "");
  const words = file
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !/^\d+$/.test(word) && !/^\d+x\d+$/i.test(word))
    .map((word) => word.toLowerCase());
  const subject = words.length > 0 ? words.join(" ") : "an image";
  return `A photo showing ${subject}, from ${url.hostname}.${tag}`;
}

/** Answers bent the way a test asked. */
function misbehave(text: string, kind: Ask["kind"], mode: OpenAIMisbehaviour | null): string {
  switch (mode) {
    case "too-long":
      return kind === "title"
        ? `${text} ${"and so much more to say about it ".repeat(3)}`.trim()
        : `${text} ${"This sentence only makes the answer much too long. ".repeat(20)}`.trim();
    case "slightly-long":
      if (kind === "title") return lengthenTitle(text);
      return `${text} ${"It keeps going a little longer than it should. ".repeat(kind === "description" ? 6 : 12)}`.trim();
    case "too-short":
      return kind === "title" ? text.split(" ")[0] : "Short and sweet.";
    case "decorated":
      return `${kind === "title" ? "Title" : kind === "description" ? "Description" : "Alt text"}: "${text}"`;
    default:
      return text;
  }
}

// ---- small helpers ----------------------------------------------------------------------------

function wordsUpTo(text: string, max: number): string {
  if (text.length <= max) return text.replace(/[.!?]+$/, "");
  const cut = text.slice(0, max + 1);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), 1)).replace(/[.,;:!?]+$/, "");
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string) {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function tokens(text: string) {
  return Math.ceil(text.length / 4);
}

/** A title a few words over 44 characters: over the limit, close enough to be trimmed. */
/** A title a few words over its limit, as models write them: a second clause after a colon. */
function lengthenTitle(text: string): string {
  const extra = "Every Single Time This Season And Beyond For Real".split(" ");
  let out = `${text}:`;
  for (let index = 0; out.length <= 44; index += 1) out += ` ${extra[index % extra.length]}`;
  return out;
}

function openAIError(c: Context, status: 400 | 401, message: string, code: string | null, type = "invalid_request_error", param: string | null = null) {
  return c.json({ error: { message, type, param, code } }, status);
}
