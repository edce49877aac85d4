import { Hono, type Context } from "hono";
import { jsonInput } from "../control-body.ts";
import { providerState, type SandboxState } from "../state.ts";

/**
 * Stand-in for Cloudflare's DNS over HTTPS, JSON API
 * (https://developers.cloudflare.com/1.1.1.1/encryption/dns-over-https/make-api-requests/dns-json/),
 * mounted at /dns:
 *
 * - `GET /dns-query?name=&type=` with `accept: application/dns-json` (or `ct=application/dns-json`):
 *   `{Status, TC, RD, RA, AD, CD, Question: [{name, type}], Answer: [{name, type, TTL, data}]}`,
 *   names written with their final dot. A CNAME is answered with the records of the name it points
 *   to after it, as a recursive resolver does. A name not in the table is NXDOMAIN (Status 3, with
 *   the SOA of its parent in Authority); a known name without records of the type asked is NOERROR
 *   without Answer. Anything but the JSON API (no accept header, no name, an unknown type) is 400.
 *
 * Answers come from a table tests change under /__sandbox/dns: `GET /records`,
 * `PUT /records/:name {A?: [...], AAAA?: [...], CNAME?, ttl?}`, `DELETE /records/:name`. A reset
 * brings back the names below. Requests are recorded and faults injected by the sandbox's own
 * controls (`service: "dns"`, path `/dns-query`).
 */

export interface DnsRecordSet {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  ttl?: number;
}

/** Names every run starts with (decision 076 and the guarded fetch's tests). */
export const DEFAULT_DNS_RECORDS: Record<string, DnsRecordSet> = {
  "public.example": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] },
  "rebind.example": { A: ["127.0.0.1"] },
  "v6.example": { AAAA: ["::1"] },
  "mixed.example": { A: ["93.184.216.34", "10.0.0.1"] },
  "metadata.example": { A: ["169.254.169.254"] },
  "alias.example": { CNAME: "rebind.example" },
};

const TYPES: Record<string, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, HTTPS: 65 };
const DEFAULT_TTL = 300;
const MAX_CNAME_CHAIN = 8;

const normalName = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");
const dotted = (name: string) => `${name}.`;

function dnsTable(state: SandboxState): Map<string, DnsRecordSet> {
  return providerState(state, "dns", () => new Map(Object.entries(DEFAULT_DNS_RECORDS)));
}

export function dnsProvider(state: SandboxState) {
  const app = new Hono();
  app.get("/dns-query", (c) => {
    const query = new URL(c.req.url).searchParams;
    const json = (c.req.header("accept") ?? "").includes("application/dns-json") || query.get("ct") === "application/dns-json";
    if (!json) return c.text("This stand-in speaks only the JSON API: send accept: application/dns-json", 400);
    const name = normalName(query.get("name") ?? "");
    if (!name || name.length > 253) return c.json({ error: "Invalid query name" }, 400);
    const typeParam = (query.get("type") ?? "A").toUpperCase();
    const type = /^\d+$/.test(typeParam) ? Number(typeParam) : TYPES[typeParam];
    if (!type || type > 65535) return c.json({ error: `Invalid query type ${typeParam}` }, 400);
    return answer(c, dnsTable(state), name, type);
  });
  return app;
}

function answer(c: Context, table: Map<string, DnsRecordSet>, name: string, type: number) {
  const records: { name: string; type: number; TTL: number; data: string }[] = [];
  let current = name;
  let found = table.get(current);
  for (let hops = 0; found?.CNAME && type !== TYPES.CNAME && hops < MAX_CNAME_CHAIN; hops += 1) {
    records.push({ name: dotted(current), type: TYPES.CNAME!, TTL: found.ttl ?? DEFAULT_TTL, data: dotted(normalName(found.CNAME)) });
    current = normalName(found.CNAME);
    found = table.get(current);
  }
  const status = found || records.length ? 0 : 3;
  if (found) {
    const ttl = found.ttl ?? DEFAULT_TTL;
    if (type === TYPES.A) for (const data of found.A ?? []) records.push({ name: dotted(current), type, TTL: ttl, data });
    if (type === TYPES.AAAA) for (const data of found.AAAA ?? []) records.push({ name: dotted(current), type, TTL: ttl, data });
    if (type === TYPES.CNAME && found.CNAME) records.push({ name: dotted(current), type, TTL: ttl, data: dotted(normalName(found.CNAME)) });
  }
  const zone = current.split(".").slice(-1)[0] ?? current;
  const body = {
    Status: status,
    TC: false,
    RD: true,
    RA: true,
    AD: false,
    CD: false,
    Question: [{ name: dotted(name), type }],
    ...(records.length
      ? { Answer: records }
      : { Authority: [{ name: dotted(zone), type: TYPES.SOA, TTL: 1800, data: `ns.sandbox.invalid. hostmaster.sandbox.invalid. 1 10800 3600 604800 1800` }] }),
  };
  return c.body(JSON.stringify(body), 200, { "content-type": "application/dns-json" });
}

function recordSetProblem(input: Record<string, unknown>): string | null {
  for (const [field, valid] of [
    ["A", (value: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(value)],
    ["AAAA", (value: string) => value.includes(":")],
  ] as const) {
    const list = input[field];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((value) => typeof value === "string" && valid(value)))
      return `${field} must be a list of ${field === "A" ? "IPv4" : "IPv6"} addresses`;
  }
  if (input.CNAME !== undefined && (typeof input.CNAME !== "string" || !input.CNAME.trim())) return "CNAME must be a name";
  if (input.ttl !== undefined && (!Number.isInteger(input.ttl) || (input.ttl as number) < 0)) return "ttl must be a whole number of seconds";
  return null;
}

export function dnsControl(state: SandboxState) {
  const control = new Hono();
  control.get("/records", (c) => c.json(Object.fromEntries(dnsTable(state))));
  control.put("/records/:name", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const problem = recordSetProblem(input);
    if (problem) return c.json({ error: problem }, 400);
    const name = normalName(c.req.param("name"));
    const records: DnsRecordSet = {
      ...(input.A ? { A: input.A as string[] } : {}),
      ...(input.AAAA ? { AAAA: input.AAAA as string[] } : {}),
      ...(input.CNAME ? { CNAME: normalName(input.CNAME as string) } : {}),
      ...(input.ttl !== undefined ? { ttl: input.ttl as number } : {}),
    };
    dnsTable(state).set(name, records);
    return c.json({ name, ...records });
  });
  control.delete("/records/:name", (c) => {
    const removed = dnsTable(state).delete(normalName(c.req.param("name")));
    return removed ? c.json({ status: "deleted" }) : c.json({ error: "No such name" }, 404);
  });
  return control;
}
