/** A social profile shown on the contact page. */
export interface SocialLink {
  name: string;
  url: string;
}

const KNOWN_NETWORKS: [RegExp, string][] = [
  [/(^|\.)pinterest\.[a-z.]+$/, "Pinterest"],
  [/(^|\.)instagram\.com$/, "Instagram"],
  [/(^|\.)(youtube\.com|youtu\.be)$/, "YouTube"],
  [/(^|\.)linkedin\.com$/, "LinkedIn"],
  [/(^|\.)facebook\.com$/, "Facebook"],
  [/(^|\.)tiktok\.com$/, "TikTok"],
  [/(^|\.)(x|twitter)\.com$/, "X"],
  [/(^|\.)threads\.net$/, "Threads"],
];

/**
 * The SOCIAL_LINKS configuration (comma-separated profile addresses) as named
 * links. Anything that is not an https address is left out, so a typo in the
 * configuration can never put a javascript: link on the page.
 */
export function socialLinksFrom(configured: string | undefined): SocialLink[] {
  const links: SocialLink[] = [];
  for (const entry of (configured ?? "").split(",")) {
    let url: URL;
    try {
      url = new URL(entry.trim());
    } catch {
      continue;
    }
    if (url.protocol !== "https:") continue;
    const host = url.hostname.replace(/^www\./, "");
    const name = KNOWN_NETWORKS.find(([pattern]) => pattern.test(host))?.[1] ?? host;
    links.push({ name, url: url.toString() });
  }
  return links;
}
