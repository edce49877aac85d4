import { describe, expect, it } from "vitest";
import * as remixBuild from "virtual:remix-build";
import { app as router } from "../../../workers/router.ts";
import { signUpUser } from "../accounts/accounts-support.ts";
import { fieldPaths, fillPath, ROUTES, servedRoutes, withField, type RouteExample } from "./campaign-routes.ts";
import { app } from "../support.ts";
import { seededRandom } from "../../../workers/domain/random.ts";

/**
 * Issue 12: malformed requests, every route, automatically. The routes come
 * from the app itself (Hono's table and Remix's route manifest), so a route
 * is covered the day it is added; each gets a generated set of bad inputs
 * from a fixed seed, signed out and signed in (bearer, and cookie with our
 * Origin). Any 5xx, or an answer that shows internal error text, fails.
 */

const SEED = 20261124;

// Seeded, so every run sends the same requests.
const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** What an answer must never show: traces, exception names, code locations, database errors. */
const INTERNAL =
  /\b(TypeError|ReferenceError|RangeError|SyntaxError|D1_ERROR|SQLITE_\w+|Cannot read propert|is not a function|is not defined|undefined is not)\b|\bat \S+ \(|\.(ts|js):\d+|node_modules|\bstack\b/;

const ONE_MB = "x".repeat(1024 * 1024);
const nested = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`);
const DEEP_TEXT = `{"a":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`;
const ODD_PARAMS = ["", "a".repeat(3000), "ü🙂", "..", "%00", "%2f", "%E0%A4%A", "'; DROP TABLE users;--", "../../etc/passwd", "null"];

interface Case {
  name: string;
  path: string;
  method: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  /** Safe to send signed out too (a well-formed request of a public route could act). */
  everyone: boolean;
}

function wrongTypeFor(value: unknown): unknown[] {
  const all: unknown[] = [123, -1.5, "text", true, [], [1, "a"], {}, { a: 1 }, null];
  return all.filter((candidate) => typeof candidate !== typeof value || Array.isArray(candidate) !== Array.isArray(value));
}

const json = (value: unknown) => JSON.stringify(value);

function casesFor(key: string, route: RouteExample): Case[] {
  const [method, template] = key.split(" ");
  const path = fillPath(template, route.params ?? {});
  const query = route.query ? `?${new URLSearchParams(route.query)}` : "";
  const cases: Case[] = [];
  const add = (name: string, init: Omit<Case, "name" | "method" | "everyone"> & { everyone?: boolean }) =>
    cases.push({ name, method, everyone: init.everyone ?? true, ...init });

  // Odd path parameters.
  for (const name of template.match(/:([A-Za-z]+)/g)?.map((p) => p.slice(1)) ?? []) {
    for (const odd of ODD_PARAMS) {
      const raw = template.replace(/:([A-Za-z]+)/g, (_, param: string) =>
        param === name ? (/%/.test(odd) ? odd : encodeURIComponent(odd)) : encodeURIComponent(route.params?.[param] ?? "x"),
      );
      add(`${name}=${JSON.stringify(odd.slice(0, 20))}`, {
        path: `${raw}${query}`,
        body: method === "GET" || method === "DELETE" ? null : json(route.body ?? {}),
        headers: { "content-type": "application/json" },
      });
    }
  }
  // Odd queries.
  const queryKeys = Object.keys(route.query ?? {});
  for (const name of queryKeys) {
    for (const odd of ["", "-1", "NaN", "1e309", "🙂", "a".repeat(4000), "%E0%A4%A"]) {
      const params = new URLSearchParams(route.query);
      params.set(name, odd);
      add(`?${name}=${JSON.stringify(odd.slice(0, 12))}`, { path: `${path}?${params}`.replace("%25E0%25A4%25A", "%E0%A4%A") });
    }
    add(`?${name} twice`, {
      path: `${path}?${new URLSearchParams([
        [name, "a"],
        [name, "b"],
      ])}`,
    });
  }
  if (method === "GET" || method === "DELETE") {
    add("junk query", { path: `${path}?${new URLSearchParams({ __proto__: "x", constructor: "y", lastPinId: "'--" })}` });
    if (method === "DELETE") add("an unexpected body", { path: `${path}${query}`, body: json({ a: 1 }), headers: { "content-type": "application/json" } });
    return cases;
  }

  // Bodies.
  const target = `${path}${query}`;
  const jsonHeaders = { "content-type": "application/json" };
  add("no body", { path: target, headers: jsonHeaders, everyone: !route.sacrificial });
  add("no body, no type", { path: target, everyone: !route.sacrificial });
  add("invalid JSON", { path: target, headers: jsonHeaders, body: '{"a": ' });
  add("JSON with a BOM and trailing junk", { path: target, headers: jsonHeaders, body: '\ufeff{"a":1}}}' });
  for (const [name, value] of [
    ["an array", "[]"],
    ["a string", '"x"'],
    ["a number", "1"],
    ["null", "null"],
    ["true", "true"],
  ] as const) {
    add(`a body that is ${name}`, { path: target, headers: jsonHeaders, body: value });
  }
  add("JSON said to be text", { path: target, headers: { "content-type": "text/plain" }, body: json(route.body === "multipart" ? {} : (route.body ?? {})) });
  add("deep nesting", { path: target, headers: jsonHeaders, body: DEEP_TEXT });
  if (route.body === "multipart") {
    const form = new FormData();
    form.set("file", new File(["not a picture"], "x.png", { type: "image/png" }));
    add("multipart without the expected fields", { path: target, body: form });
    add("multipart said to be JSON", { path: target, headers: { "content-type": "multipart/form-data; boundary=nothing" }, body: "--nothing--" });
    return cases;
  }
  const example = route.body ?? {};
  const fields = fieldPaths(example);
  for (const field of fields) {
    const value = field.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], example);
    const wrong = pick(wrongTypeFor(value));
    add(`${field.join(".")} = ${JSON.stringify(wrong)}`, { path: target, headers: jsonHeaders, body: json(withField(example, field, wrong)) });
    add(`${field.join(".")} = null`, { path: target, headers: jsonHeaders, body: json(withField(example, field, null)) });
  }
  if (fields.length > 0) {
    const field = pick(fields);
    add(`${field.join(".")} = 1 MB`, { path: target, headers: jsonHeaders, body: json(withField(example, field, ONE_MB)) });
    add(`${field.join(".")} nested 80 levels`, { path: target, headers: jsonHeaders, body: json(withField(example, field, nested(80))) });
    add(`${field.join(".")} = control characters`, { path: target, headers: jsonHeaders, body: json(withField(example, field, "\u0000\u202e\u0007x")) });
  }
  if (!route.slow && !route.sacrificial)
    add("unknown fields", { path: target, headers: jsonHeaders, body: json({ ...example, __proto__x: 1, extra: { deep: [1, 2, 3] } }) });
  return cases;
}

function pagePaths(): string[] {
  const routes = (remixBuild as unknown as { routes: Record<string, { path?: string; parentId?: string; index?: boolean }> }).routes;
  const full = (id: string): string => {
    const route = routes[id];
    const own = route.path ?? "";
    const parent = route.parentId && route.parentId !== "root" ? full(route.parentId) : "";
    return `${parent}/${own}`.replace(/\/+/g, "/");
  };
  return Object.keys(routes)
    .filter((id) => id !== "root")
    .map((id) => full(id));
}

describe("malformed requests, every route", () => {
  it("knows every route the app serves (add new routes to test/workers/core/campaign-routes.ts)", () => {
    const missing = servedRoutes(router.routes).filter((key) => !(key in ROUTES));
    expect(missing, "routes without an example in campaign-routes.ts").toEqual([]);
    const gone = Object.keys(ROUTES).filter((key) => !servedRoutes(router.routes).includes(key));
    expect(gone, "examples of routes the app no longer serves").toEqual([]);
  });

  it("answers every generated bad input without a 5xx or internal error text, signed out and signed in", async () => {
    const user = await signUpUser({ firstName: "Mal" });
    // The key the WordPress plugin's routes are sent with (RouteExample.wordpressKey).
    const wordpressKey = (
      await (await app("/api/wordpress/accessKey", { method: "POST", headers: { authorization: `Bearer ${user.tokens.idToken}` } })).json<{ key: string }>()
    ).key;
    const failures: string[] = [];
    let sent = 0;
    let ip = 0;
    const send = async (label: string, request: Case, credentials: Record<string, string>) => {
      sent += 1;
      ip += 1;
      const headers = { ...request.headers, ...credentials, "cf-connecting-ip": `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` };
      let response: Response;
      try {
        response = await app(request.path, { method: request.method, headers, body: request.body ?? undefined, redirect: "manual" });
      } catch (error) {
        failures.push(`${label}: the request could not be made (${String(error).slice(0, 120)})`);
        return;
      }
      const text = await response.text();
      if (response.status >= 500) failures.push(`${label}: ${response.status} ${text.slice(0, 160)}`);
      else if (INTERNAL.test(text)) failures.push(`${label}: ${response.status} shows internal text: ${text.match(INTERNAL)?.[0]} in ${text.slice(0, 160)}`);
    };

    const ordered = Object.entries(ROUTES).sort(([, a], [, b]) => Number(a.sacrificial ?? false) - Number(b.sacrificial ?? false));
    for (const [key, route] of ordered) {
      const cases = casesFor(key, route);
      // Sacrificial routes (logout, account deletion) get a user of their own.
      const caller = route.sacrificial ? await signUpUser({ firstName: "Sac" }) : user;
      for (const request of cases) {
        const label = `${key} [${request.name}]`;
        await send(`${label} (bearer)`, request, { authorization: `Bearer ${route.wordpressKey ? wordpressKey : caller.tokens.idToken}` });
        if (route.public || request.everyone) await send(`${label} (signed out)`, request, {});
      }
      for (const request of cases.slice(0, 4)) {
        await send(`${key} [${request.name}] (cookie)`, request, { cookie: caller.cookie, origin: "http://app.test" });
      }
    }

    for (const path of pagePaths()) {
      const base = path.replace(/:([A-Za-z]+)/g, "x").replace(/\*$/, "no-such-page");
      for (const suffix of ["", "?redirectTo=//evil.example", "?%E0%A4%A=1", `?q=${"a".repeat(4000)}`, "/..%2f..%2f", "?pinterestError=%00%202e"]) {
        const request: Case = {
          name: suffix || "plain",
          method: "GET",
          path: `${suffix.startsWith("/") ? base.replace(/\/$/, "") : base}${suffix}`,
          everyone: true,
        };
        await send(`page ${base}${suffix.slice(0, 30)} (signed out)`, request, {});
        await send(`page ${base}${suffix.slice(0, 30)} (cookie)`, request, { cookie: user.cookie });
      }
    }

    console.log(
      `malformed-request campaign (seed ${SEED}): ${Object.keys(ROUTES).length} API routes and ${pagePaths().length} pages, ${sent} requests, ${failures.length} failures`,
    );
    expect(failures.join("\n"), "answers with a 5xx or internal error text").toBe("");
  }, 600_000);
});
