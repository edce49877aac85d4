import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../../contracts/html.ts";

describe("the one HTML escape (pages, e-mails, SVG, the sitemap and the stand-ins)", () => {
  it("turns the five characters that end text or an attribute into entities, and leaves the rest", () => {
    expect(escapeHtml(`Tom & Jerry's <b>"best"</b> — café`)).toBe("Tom &amp; Jerry&#39;s &lt;b&gt;&quot;best&quot;&lt;/b&gt; — café");
    expect(escapeHtml("&amp;")).toBe("&amp;amp;");
  });
});
