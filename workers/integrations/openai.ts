import OpenAI, { APIConnectionError, APIError } from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { ProviderError } from "./http.ts";

/** The part of the worker's Env this client reads (plain strings, so Node-side tests can pass their own). */
interface OpenAIEnv {
  OPENAI_API_KEY: string;
  OPENAI_BASE_URL: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  /** How many alternative answers (choices) to ask for. */
  n?: number;
  maxCompletionTokens: number;
  temperature?: number;
  timeoutMs?: number;
}

/** The SDK's client for our configuration: no retries of its own (ours are below), fetch as workerd has it. */
function openAIClient(env: OpenAIEnv, timeout: number): OpenAI {
  if (!env.OPENAI_API_KEY || !env.OPENAI_BASE_URL) {
    throw new ProviderError("openai", "openai is not configured: OPENAI_API_KEY and OPENAI_BASE_URL are required", null);
  }
  return new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, fetch: (input, init) => fetch(input, init), maxRetries: 0, timeout });
}

/** Wait before the one retry of a failed call (tests and production alike: short and bounded). */
export const OPENAI_RETRY_BACKOFF_MS = 400;
const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Chat completions through the official SDK (fetch-based, so it runs in
 * workerd). OPENAI_BASE_URL is https://api.openai.com/v1 in production and the
 * sandbox stand-in locally. The SDK's own retries are off: a server error or a
 * timeout is retried here exactly once after a short backoff; a rate limit
 * (429) is not retried, the caller turns it into 503. Failures are thrown as
 * ProviderError("openai", ...), so callers decide on one shape. Answers the
 * content of every choice, in order ("" for a choice without text).
 */
export async function completeChat(env: OpenAIEnv, request: ChatRequest): Promise<string[]> {
  const client = openAIClient(env, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const call = async () => {
    const completion = await client.chat.completions.create({
      model: request.model,
      messages: request.messages,
      n: request.n ?? 1,
      max_completion_tokens: request.maxCompletionTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    });
    return completion.choices.map((choice) => choice.message?.content ?? "");
  };
  try {
    return await call();
  } catch (first) {
    const error = asProviderError(first);
    if (error.status !== null && error.status < 500) throw error;
    await new Promise((resolve) => setTimeout(resolve, OPENAI_RETRY_BACKOFF_MS));
    try {
      return await call();
    } catch (second) {
      throw asProviderError(second);
    }
  }
}

export interface ImageRequest {
  model: string;
  prompt: string;
  /** Portrait for pins (2:3). */
  size: "1024x1536" | "1024x1024";
  timeoutMs?: number;
}

/**
 * One picture from OpenAI's image API (images.generate) through the same SDK: its bytes (the API answers base64).
 * Retried once on a server error or timeout, as chat is; a refusal (400, e.g. a prompt the safety system turns
 * down) or a rate limit is not.
 */
export async function generateImage(env: OpenAIEnv, request: ImageRequest): Promise<Uint8Array<ArrayBuffer>> {
  const client = openAIClient(env, request.timeoutMs ?? 90_000);
  const call = async () => {
    const answer = await client.images.generate({ model: request.model, prompt: request.prompt, size: request.size, n: 1 });
    const encoded = answer.data?.[0]?.b64_json;
    if (!encoded) throw new ProviderError("openai", "openai answered no picture", 502);
    return Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  };
  try {
    return await call();
  } catch (first) {
    const error = first instanceof ProviderError ? first : asProviderError(first);
    if (error.status !== null && error.status < 500) throw error;
    await new Promise((resolve) => setTimeout(resolve, OPENAI_RETRY_BACKOFF_MS));
    try {
      return await call();
    } catch (second) {
      throw second instanceof ProviderError ? second : asProviderError(second);
    }
  }
}

/** The SDK's errors as ProviderError: an HTTP status when OpenAI answered, null when it could not be reached or timed out. */
export function asProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionError) return new ProviderError("openai", `openai could not be reached: ${error.message}`, null);
  if (error instanceof APIError && typeof error.status === "number") {
    const body = JSON.stringify(error.error ?? {});
    return new ProviderError("openai", `openai answered ${error.status}: ${error.message}`.slice(0, 400), error.status, body);
  }
  return new ProviderError("openai", `openai call failed: ${error instanceof Error ? error.message : String(error)}`, null);
}

/** The error code in an OpenAI error body ({"error": {"code": ...}}), if any. */
export function openAIErrorCode(error: ProviderError): string | null {
  try {
    const parsed = JSON.parse(error.body) as { code?: unknown; error?: { code?: unknown } };
    const code = parsed.code ?? parsed.error?.code;
    return typeof code === "string" ? code : null;
  } catch {
    return null;
  }
}
