import { vValidator } from "@hono/valibot-validator";
import * as v from "valibot";

/**
 * Validation middleware for a request part: bad input answers 400 with
 * `{ error, field }`, naming the first field at fault, and the handler never runs.
 */
export function valid<Target extends "json" | "query" | "param" | "form", S extends v.GenericSchema>(target: Target, schema: S) {
  return vValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issue = result.issues[0];
      const field = v.getDotPath(issue) ?? undefined;
      return c.json(field ? { error: issue.message, field } : { error: issue.message }, 400);
    }
  });
}
