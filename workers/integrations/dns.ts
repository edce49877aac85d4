import { ProviderError, providerFetch } from "./http.ts";

/**
 * DNS over HTTPS, JSON API (Cloudflare's 1.1.1.1: GET {base}/dns-query?name=&type=
 * with `accept: application/dns-json`). A Worker cannot resolve names itself;
 * the guarded fetch (workers/http/guarded-fetch.ts) asks here which addresses a
 * host has before it lets a request go there. DNS_RESOLVER_URL is
 * https://cloudflare-dns.com in production and the sandbox's stand-in locally.
 */

export interface DnsEnv {
  DNS_RESOLVER_URL: string;
}

/** The resolver could not answer (unreachable, a server failure, an answer we cannot read): the caller must refuse. */
export class DnsLookupFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DnsLookupFailed";
  }
}

/** The JSON answer's shape (the fields we read). */
interface DnsJsonAnswer {
  Status: number;
  Answer?: { name: string; type: number; TTL: number; data: string }[];
}

const RECORD_TYPES = { A: 1, AAAA: 28 } as const;
const NOERROR = 0;
const NXDOMAIN = 3;
const LOOKUP_TIMEOUT_MS = 3_000;
/** Answers are kept for their TTL, at most this long, and this many names at once. */
const MAX_CACHE_SECONDS = 300;
const MAX_CACHED_NAMES = 500;

const cache = new Map<string, { addresses: string[]; expiresAt: number }>();

async function query(env: DnsEnv, name: string, type: keyof typeof RECORD_TYPES): Promise<{ addresses: string[]; ttl: number }> {
  if (!env.DNS_RESOLVER_URL) throw new DnsLookupFailed("DNS_RESOLVER_URL is not configured");
  const url = new URL(`${env.DNS_RESOLVER_URL.replace(/\/+$/, "")}/dns-query`);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  let answer: DnsJsonAnswer;
  try {
    const response = await providerFetch("dns", url.toString(), { headers: { accept: "application/dns-json" }, timeoutMs: LOOKUP_TIMEOUT_MS });
    answer = (await response.json()) as DnsJsonAnswer;
  } catch (error) {
    throw new DnsLookupFailed(error instanceof ProviderError ? error.message : `dns answered something unreadable for ${name}`);
  }
  if (answer.Status === NXDOMAIN) return { addresses: [], ttl: 0 };
  if (answer.Status !== NOERROR) throw new DnsLookupFailed(`dns answered status ${answer.Status} for ${name} ${type}`);
  // A CNAME chain comes as CNAME records, then the final name's records: those are the addresses.
  const records = (answer.Answer ?? []).filter((record) => record.type === RECORD_TYPES[type] && typeof record.data === "string");
  return { addresses: records.map((record) => record.data), ttl: Math.min(...records.map((record) => record.TTL), MAX_CACHE_SECONDS) };
}

/**
 * Every IPv4 and IPv6 address `name` resolves to (A and AAAA, asked at
 * once); an empty list when the name does not exist or has no address.
 * Throws DnsLookupFailed when the resolver does not answer properly.
 */
export async function resolveAddresses(env: DnsEnv, name: string): Promise<string[]> {
  const key = name.toLowerCase().replace(/\.$/, "");
  const cached = cache.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.addresses;
  // Look-ups under way are not shared: a promise of one request awaited by another is cut off when the first ends.
  const [v4, v6] = await Promise.all([query(env, key, "A"), query(env, key, "AAAA")]);
  const addresses = [...v4.addresses, ...v6.addresses];
  const ttl = Math.min(v4.addresses.length ? v4.ttl : MAX_CACHE_SECONDS, v6.addresses.length ? v6.ttl : MAX_CACHE_SECONDS);
  if (addresses.length > 0 && ttl > 0) {
    if (cache.size >= MAX_CACHED_NAMES) cache.delete(cache.keys().next().value!);
    cache.set(key, { addresses, expiresAt: Date.now() + ttl * 1000 });
  }
  return addresses;
}
