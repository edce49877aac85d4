import { vValidator } from "@hono/valibot-validator";
import type { Context } from "hono";
import * as v from "valibot";
import { IDEMPOTENCY_KEY_PATTERN } from "../../../contracts/fields.ts";
import { ServiceError } from "../../services/core/errors.ts";
import { chargeReference, idempotent } from "../../services/core/idempotency.ts";
import type { AppBindings } from "./hono.ts";

/**
 * Validation middleware for a request part: bad input answers 400 with
 * `{ error, field }`, naming the first field at fault, and the handler never runs.
 * Text holding half of a UTF-16 surrogate pair (JSON's "\ud800" escape) is bad
 * input too: stored, it would silently become U+FFFD.
 */
export function valid<Target extends "json" | "query" | "param" | "form", S extends v.GenericSchema>(target: Target, schema: S) {
  return vValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issue = result.issues[0];
      const field = v.getDotPath(issue) ?? undefined;
      return c.json(field ? { error: issue.message, field } : { error: issue.message }, 400);
    }
    const broken = illFormedTextPath(result.output);
    if (broken !== null)
      return c.json(
        { error: `${broken || "The request"} holds a character that is not valid text (half of a surrogate pair).`, field: broken || undefined },
        400,
      );
  });
}

/** A lone surrogate: with the u flag a proper pair is one code point, so only halves are of category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The dot path of the first string (or object key) that is not well-formed UTF-16 ("" for the value itself), or null. */
export function illFormedTextPath(value: unknown, path = ""): string | null {
  if (typeof value === "string") return LONE_SURROGATE.test(value) ? path : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (LONE_SURROGATE.test(key)) return here;
    const found = illFormedTextPath(item, here);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The idempotency key of a request: the body's `reference` (the spec's call
 * shapes) or the `Idempotency-Key` header; both must agree when both are sent.
 * Throws 400 naming the field at fault.
 */
export function idempotencyKey(c: Context, bodyReference: string | undefined): string | undefined {
  const header = c.req.header("idempotency-key");
  if (header === undefined) return bodyReference;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) throw new ServiceError(400, "The Idempotency-Key header must be 8-120 letters, digits or :_.-", "Idempotency-Key");
  if (bodyReference !== undefined && bodyReference !== header)
    throw new ServiceError(400, "reference and the Idempotency-Key header name different requests", "reference");
  return header;
}

/**
 * Runs a signed-in caller's request under its idempotency key (decision 017):
 * `work` gets the ledger reference to charge under, one per request.
 */
export function once<T>(c: Context<AppBindings>, operation: string, input: { reference?: string }, work: (chargeReference: string) => Promise<T>): Promise<T> {
  return idempotent({
    env: c.env,
    userId: c.var.auth.user.id,
    operation,
    key: idempotencyKey(c, input.reference),
    body: input,
    work: (id) => work(chargeReference(operation, id)),
  });
}
