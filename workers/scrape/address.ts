/**
 * Which hosts the worker must never fetch in production: loopback, private,
 * link-local, carrier-grade NAT, multicast and reserved addresses, and names
 * that only mean something inside a network (localhost, *.local, *.internal).
 * In development and tests they are allowed, so the local sandbox works.
 *
 * Only literal addresses and such names can be judged here: a Worker cannot
 * resolve DNS before fetching (docs/decisions/005-fetching-sources.md).
 */

const PRIVATE_NAMES = [/^localhost$/, /\.localhost$/, /\.local$/, /\.internal$/, /\.intranet$/, /\.lan$/, /\.home\.arpa$/, /\.localdomain$/];

/** [first address, prefix length] of IPv4 ranges that are not on the public internet. */
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
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

function isPrivateV4(address: string): boolean {
  const value = v4ToNumber(address);
  if (value === null) return false;
  return PRIVATE_V4.some(([base, bits]) => {
    const start = v4ToNumber(base)!;
    const size = 2 ** (32 - bits);
    return value >= start && value < start + size;
  });
}

/** Expands an IPv6 address (as the URL parser writes it) to eight 16-bit groups; null if it is not one. */
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

function isPrivateV6(address: string): boolean {
  const g = v6Groups(address);
  if (!g) return false;
  const first = g[0]!;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): judge the embedded IPv4 address.
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = first === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) return isPrivateV4(`${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** True when a URL's host name is a private, loopback, link-local or otherwise non-public address or name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (!host) return true;
  if (PRIVATE_NAMES.some((pattern) => pattern.test(host))) return true;
  if (host.includes(":")) return isPrivateV6(host);
  if (/^[\d.]+$/.test(host)) return isPrivateV4(host);
  // A single label ("intranet", "router") can only be resolved inside a network.
  return !host.includes(".");
}

/** Whether the worker may fetch this URL in the given environment (private addresses only outside production). */
export function mayFetchHost(hostname: string, appEnv: string | undefined): boolean {
  return appEnv !== "production" || !isPrivateHost(hostname);
}
