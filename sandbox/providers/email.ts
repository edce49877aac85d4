import { Hono } from "hono";
import type { SandboxState } from "../state.ts";

/**
 * Stand-in for Resend's e-mail API (https://resend.com/docs/api-reference/emails/send-email):
 * `POST /emails` with a bearer API key and {from, to, subject, html, text, reply_to, headers}.
 * Every accepted e-mail lands in the outbox (`GET /__sandbox/outbox`).
 */
export function emailProvider(state: SandboxState) {
  const app = new Hono();

  app.post("/emails", async (c) => {
    const auth = c.req.header("authorization") ?? "";
    if (!/^Bearer \S+/.test(auth)) {
      return c.json({ statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header" }, 401);
    }
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ statusCode: 422, name: "validation_error", message: "Invalid JSON body." }, 422);
    }
    const to = typeof body.to === "string" ? [body.to] : Array.isArray(body.to) ? body.to.map(String) : [];
    for (const field of ["from", "subject"] as const) {
      if (typeof body[field] !== "string" || !body[field]) {
        return c.json({ statusCode: 422, name: "validation_error", message: `Missing \`${field}\` field.` }, 422);
      }
    }
    if (to.length === 0) return c.json({ statusCode: 422, name: "validation_error", message: "Missing `to` field." }, 422);
    const html = typeof body.html === "string" ? body.html : "";
    const text = typeof body.text === "string" ? body.text : "";
    if (!html && !text) {
      return c.json({ statusCode: 422, name: "validation_error", message: "Missing `html` or `text` field." }, 422);
    }
    const replyTo = typeof body.reply_to === "string" ? [body.reply_to] : Array.isArray(body.reply_to) ? body.reply_to.map(String) : [];
    if (
      body.headers !== undefined &&
      (typeof body.headers !== "object" ||
        body.headers === null ||
        Array.isArray(body.headers) ||
        Object.values(body.headers).some((value) => typeof value !== "string"))
    ) {
      return c.json({ statusCode: 422, name: "validation_error", message: "`headers` must be an object of strings." }, 422);
    }
    const headers = (body.headers ?? {}) as Record<string, string>;
    const id = crypto.randomUUID();
    state.outbox.push({
      id,
      from: String(body.from),
      to,
      subject: String(body.subject),
      text,
      html,
      replyTo,
      headers,
      links: linksIn(html, text),
      at: new Date().toISOString(),
    });
    return c.json({ id });
  });

  return app;
}

/** Every distinct http(s) link of an e-mail: href targets of the HTML first, then bare URLs in the text. */
export function linksIn(html: string, text: string): string[] {
  const links = new Set<string>();
  for (const match of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) links.add(decodeEntities(match[1]));
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')]+/g)) links.add(match[0]);
  return [...links].filter((link) => /^https?:\/\//.test(link));
}

function decodeEntities(value: string) {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}
