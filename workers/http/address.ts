/**
 * Which addresses the worker may fetch on a user's behalf: only ones on the
 * public internet. Pure (no DNS, no environment): the guarded fetch
 * (guarded-fetch.ts) resolves names and brings every address here, and the
 * unit tests hold the full list. docs/decisions/076-one-guarded-fetch.md.
 */

/** Names that only mean something inside a network; single labels ("intranet", "router") too. */
const PRIVATE_NAMES = [/^localhost$/, /\.localhost$/, /\.local$/, /\.internal$/, /\.intranet$/, /\.lan$/, /\.home\.arpa$/, /\.localdomain$/];

/** [first address, prefix length] of IPv4 ranges that are not on the public internet (IANA special-purpose registry). */
const NON_PUBLIC_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address 255.255.255.255
];

function v4ToNumber(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

const V4_RANGES = NON_PUBLIC_V4.map(([base, bits]) => ({ start: v4ToNumber(base)!, size: 2 ** (32 - bits) }));

function isPublicV4(value: number): boolean {
  return !V4_RANGES.some(({ start, size }) => value >= start && value < start + size);
}

/** An IPv6 address (any textual form, an IPv4 tail included) as eight 16-bit groups; null if it is not one. */
function v6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const v4Tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4Tail) {
    const value = v4ToNumber(v4Tail[1]!);
    if (value === null) return null;
    text = `${text.slice(0, -v4Tail[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some(Number.isNaN) ? null : groups;
}

const embeddedV4 = (high: number, low: number) => ((high << 16) | low) >>> 0;
const zeros = (groups: number[]) => groups.every((group) => group === 0);

function isPublicV6(g: number[]): boolean {
  // Forms that carry an IPv4 address a packet really goes to: judged by that address.
  if (zeros(g.slice(0, 5)) && g[5] === 0xffff) return isPublicV4(embeddedV4(g[6]!, g[7]!)); // IPv4-mapped ::ffff:0:0/96
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(g.slice(2, 6))) return isPublicV4(embeddedV4(g[6]!, g[7]!)); // NAT64 64:ff9b::/96
  if (g[0] === 0x2002) return isPublicV4(embeddedV4(g[1]!, g[2]!)); // 6to4 2002::/16
  // Only global unicast (2000::/3) is the public internet. Outside it: ::, ::1, IPv4-compatible ::/96,
  // IPv4-translated ::ffff:0:0:0/96, local-use NAT64 64:ff9b:1::/48, discard 100::/64, unique local
  // fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8 and everything unassigned.
  if ((g[0]! & 0xe000) !== 0x2000) return false;
  // IETF protocol assignments 2001::/23: Teredo 2001::/32 (its IPv4 address is obfuscated), benchmarking, ORCHID.
  if (g[0] === 0x2001 && g[1]! < 0x0200) return false;
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x3fff && g[1]! < 0x1000) return false; // documentation 3fff::/20
  return true;
}

/** True when an IP address (IPv4 dotted quad, or IPv6 with or without brackets) is on the public internet. Anything unreadable is not. */
export function isPublicAddress(address: string): boolean {
  const text = address.trim().replace(/^\[|\]$/g, "");
  if (text.includes(":")) {
    const groups = v6Groups(text);
    return groups !== null && isPublicV6(groups);
  }
  const value = v4ToNumber(text);
  return value !== null && isPublicV4(value);
}

/**
 * The IP address a URL's host names literally, or null for a name. The URL
 * parser has already written every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1)
 * as a dotted quad and IPv6 in brackets.
 */
export function ipLiteral(hostname: string): string | null {
  if (hostname.startsWith("[")) return hostname.slice(1, -1);
  return /^\d{1,3}(\.\d{1,3}){3}\.?$/.test(hostname) ? hostname.replace(/\.$/, "") : null;
}

/** True for names that only mean something inside a network (localhost, *.local, *.internal, single labels). */
export function isPrivateName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (!host) return true;
  return PRIVATE_NAMES.some((pattern) => pattern.test(host)) || !host.includes(".");
}

/**
 * True when a URL's host is, as written, a non-public address or a private
 * name. A public-looking name may still resolve to a private address: only
 * the guarded fetch, which resolves it, can tell.
 */
export function isPrivateHost(hostname: string): boolean {
  const literal = ipLiteral(hostname.toLowerCase());
  return literal !== null ? !isPublicAddress(literal) : isPrivateName(hostname);
}
