import { describe, expect, it } from "vitest";
import { socialLinksFrom } from "../../../workers/domain/social-links.ts";

describe("socialLinksFrom (the contact page's SOCIAL_LINKS)", () => {
  it("names known networks and keeps the configured order", () => {
    expect(socialLinksFrom(" https://www.pinterest.co.uk/studio/ , https://youtu.be/x,https://x.com/studio,https://mastodon.social/@studio")).toEqual([
      { name: "Pinterest", url: "https://www.pinterest.co.uk/studio/" },
      { name: "YouTube", url: "https://youtu.be/x" },
      { name: "X", url: "https://x.com/studio" },
      { name: "mastodon.social", url: "https://mastodon.social/@studio" },
    ]);
  });

  it("leaves out what is not an https address", () => {
    expect(socialLinksFrom("javascript:alert(1),http://instagram.com/a,not a url,,")).toEqual([]);
    expect(socialLinksFrom(undefined)).toEqual([]);
  });
});
