/**
 * The rule for a source URL typed by the user (spec section 5): valid only if
 * its host contains a dot, normalised to https. Local demo hosts (127.0.0.1,
 * localhost, *.localhost and the hosts of the trusted fetch origins, i.e. the
 * sandbox's locally) keep the scheme they were given, since the sandbox speaks
 * plain http. Whether an address may be fetched at all is the guarded fetch's
 * to judge (workers/http/guarded-fetch.ts).
 *
 * Pure and isomorphic: the browser validates with the same function before it
 * calls the worker, and the worker checks again.
 */

export type SourceUrlCheck = { ok: true; url: string } | { ok: false; error: string };

export interface SourceUrlOptions {
  /** Extra hosts (host names, without port) treated as local demo hosts, e.g. the sandbox's. */
  localHosts?: readonly string[];
  /** How the field is named in error messages. */
  field?: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** True for hosts that only exist on this machine: loopback names and addresses, *.localhost. */
export function isLocalDemoHost(hostname: string, localHosts: readonly string[] = []): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1") return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return localHosts.some((local) => local.toLowerCase() === host);
}

/** Checks and normalises a source URL; the error names the field and says what a good address looks like. */
export function normalizeSourceUrl(input: string, options: SourceUrlOptions = {}): SourceUrlCheck {
  const field = options.field ?? "url";
  const example = `such as https://example.com/my-post`;
  const text = input.trim();
  if (!text) return { ok: false, error: `${field} is required` };
  if (/\s/.test(text)) return { ok: false, error: `${field} must be a single web address without spaces, ${example}.` };

  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme && scheme !== "http" && scheme !== "https") {
    return { ok: false, error: `${field} must be a web address starting with http:// or https://, ${example}.` };
  }
  if (!scheme && /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text) && !/^[^/:]+:\d/.test(text)) {
    // "mailto:x", "javascript:..." (but not "host:8080/path").
    return { ok: false, error: `${field} must be a web address starting with http:// or https://, ${example}.` };
  }

  let url: URL;
  try {
    url = new URL(scheme ? text : `http://${text.replace(/^\/+/, "")}`);
  } catch {
    return { ok: false, error: `${field} is not a valid web address; enter one ${example}.` };
  }
  if (url.username || url.password) return { ok: false, error: `${field} must not contain a user name or password.` };

  const host = url.hostname;
  if (isLocalDemoHost(host, options.localHosts)) {
    // The sandbox and local sites speak plain http: keep the scheme given (http when none was typed).
    url.hash = "";
    return { ok: true, url: url.href };
  }
  const bare = host.replace(/^\[|\]$/g, "");
  if (!bare.includes(".") || bare.startsWith(".") || bare.endsWith(".") || bare.includes("..")) {
    return { ok: false, error: `${field} must be a web address whose host contains a dot, ${example}.` };
  }
  url.protocol = "https:";
  url.hash = "";
  return { ok: true, url: url.href };
}

/** `raw` resolved against `base` when the result is an http(s) URL; "" otherwise. */
export function resolveWebUrl(raw: string, base: string): string {
  const text = raw.trim();
  if (!text) return "";
  try {
    const url = new URL(text, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
  } catch {
    return "";
  }
}
