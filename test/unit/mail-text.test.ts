import { describe, expect, it } from "vitest";
import { greeting, inertText, plainName, quoted } from "../../workers/domain/mail-text.ts";
import { referralInviteEmail, reviewerInviteEmail, verificationEmail } from "../../workers/services/emails.ts";

// User-chosen text in e-mail to typed addresses (decision 080): quoted and inert in the body, only a plain
// name in a subject. The owner name, exactly:
const EVIL = "WIN $5000 NOW at http://evil.example/claim";

/**
 * What mail clients turn into links in plain text (Gmail, Outlook, Apple Mail): a scheme URL, a www.
 * address, an e-mail address, or a bare domain name ending in a top-level domain of 2+ letters.
 */
function autolinkable(text: string): string[] {
  const patterns = [
    /\b[a-z][a-z0-9+.-]*:\/\/\S+/giu,
    /\bwww\.\S+/giu,
    /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu,
    /\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\b/gu,
  ];
  return patterns.flatMap((pattern) => text.match(pattern) ?? []);
}

/** The text with our own links taken out: what is left must link nothing. */
function withoutOwnLinks(text: string, links: string[]): string {
  return links.reduce((rest, link) => rest.split(link).join(""), text);
}

describe("a plain name", () => {
  it.each([
    ["Maya", "Maya"],
    ["Maya Lindqvist", "Maya Lindqvist"],
    ["  Anne-Marie   O'Brien ", "Anne-Marie O'Brien"],
    ["José Núñez", "José Núñez"],
    ["D’Arcy", "D’Arcy"],
    ["Zoë", "Zoë"],
    ["Łukasz Żółć", "Łukasz Żółć"],
    ["李小龙", "李小龙"],
  ])("%j stands in a subject as %j", (name, plain) => {
    expect(plainName(name)).toBe(plain);
  });

  it.each([
    EVIL,
    "evil.example",
    "Maya2",
    "Dr. Maya",
    "Maya <maya@example.com>",
    "-Maya",
    "Maya-",
    "Maya  --  Lind",
    "",
    "   ",
    "A".repeat(41),
  ])("%j is not a plain name", (name) => {
    expect(plainName(name)).toBeNull();
  });

  it("drops invisible characters before looking", () => {
    expect(plainName("Maya\u200bLindqvist")).toBe("MayaLindqvist");
    expect(plainName("Maya\u202e Lindqvist")).toBe("Maya Lindqvist");
  });

  it("allows 40 characters, not 41", () => {
    expect(plainName("A".repeat(40))).toBe("A".repeat(40));
    expect(plainName("A".repeat(41))).toBeNull();
  });

  it("greets by a plain name only", () => {
    expect(greeting("Maya")).toBe("Hi Maya,");
    expect(greeting(EVIL)).toBe("Hi,");
  });
});

describe("inert text", () => {
  it.each([
    [EVIL, "WIN $5000 NOW at http[:]//evil[.]example/claim"],
    ["https://evil.example", "https[:]//evil[.]example"],
    ["www.evil.com", "www[.]evil[.]com"],
    ["evil.example/claim", "evil[.]example/claim"],
    ["write to me@evil.co", "write to me@evil[.]co"],
    ["ftp://host", "ftp[:]//host"],
    ["http:\\\\evil.example", "http[:]\\\\evil[.]example"],
    // Full-width and ideographic dots and letters are read as what they show.
    ["ｅｖｉｌ．ｅｘａｍｐｌｅ", "evil[.]example"],
    ["evil。example", "evil[.]example"],
    ["evil\u2024example", "evil[.]example"],
    // Invisible characters that would hide a link from a filter are dropped first.
    ["evil.\u200bexample", "evil[.]example"],
    ["evil\u200d.example", "evil[.]example"],
    ["bidi \u202eelpmaxe.live", "bidi elpmaxe[.]live"],
    ["line\nbreak\tand\r\nreturns", "line break and returns"],
    // Ordinary dots stay: nothing after them could be a domain.
    ["J.R.R. Tolkien", "J.R.R. Tolkien"],
    ["Mr. Smith, e.g. here.", "Mr. Smith, e.g. here."],
    ["Maya Lindqvist", "Maya Lindqvist"],
    ["linen_studio", "linen_studio"],
  ])("%j reads %j", (text, inert) => {
    expect(inertText(text)).toBe(inert);
    expect(autolinkable(inertText(text))).toEqual([]);
  });

  it("is cut to 120 characters", () => {
    const long = inertText("a ".repeat(200));
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith("…")).toBe(true);
  });

  it("is quoted", () => {
    expect(quoted("Maya")).toBe("“Maya”");
  });
});

describe("e-mails to typed addresses carry user text quoted, inert and out of the subject", () => {
  const LINK = "https://app.example/post-approvals?review=token";

  it("the reviewer invite with the issue's owner name", () => {
    const mail = reviewerInviteEmail("victim@example.com", EVIL, "linen.studio", LINK);
    // The subject names nobody: the name is no plain name.
    expect(mail.subject).toBe("You are invited to approve Pinterest pins");
    expect(mail.subject).not.toMatch(/WIN|evil|5000|linen/);
    // Quoted and inert in the body, in both parts.
    expect(mail.text).toContain("“WIN $5000 NOW at http[:]//evil[.]example/claim” schedules pins to the Pinterest profile “linen[.]studio”");
    expect(mail.html).toContain("“WIN $5000 NOW at http[:]//evil[.]example/claim” schedules pins");
    // No link but ours.
    expect(autolinkable(withoutOwnLinks(mail.text, [LINK]))).toEqual([]);
    expect(mail.text).not.toContain("evil.example");
    expect(mail.html).not.toContain("evil.example");
    const anchors = [...mail.html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)];
    expect(anchors.length).toBeGreaterThan(0);
    for (const [, href, label] of anchors) {
      expect(href.replace(/&amp;/g, "&")).toBe(LINK);
      expect(label).not.toMatch(/evil|WIN/);
    }
    const visibleHtml = mail.html.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&");
    expect(autolinkable(withoutOwnLinks(visibleHtml, [LINK]))).toEqual([]);
  });

  it("the reviewer invite from a plain name names them in the subject, not the profile", () => {
    const mail = reviewerInviteEmail("reviewer@example.com", "Ines Moreau", "linen_studio", LINK);
    expect(mail.subject).toBe("Ines Moreau asks you to approve Pinterest pins");
    expect(mail.text).toContain("“Ines Moreau” schedules pins to the Pinterest profile “linen_studio”");
  });

  it("escapes markup in a name rather than rendering it", () => {
    const mail = reviewerInviteEmail("reviewer@example.com", '<a href="http://evil.example">Claim</a>', "p", LINK);
    // Every link in the HTML is ours; the name's markup is text.
    for (const [tag] of mail.html.matchAll(/<a\b[^>]*>/g)) expect(tag).toContain(`href="${LINK}"`);
    expect(mail.html).toContain("&lt;a href=&quot;http[:]//evil[.]example&quot;&gt;Claim&lt;/a&gt;");
    expect(mail.subject).toBe("You are invited to approve Pinterest pins");
  });

  it("the gift invite", () => {
    const link = "https://app.example/referral?pgreferral=ABCD2345";
    const evil = referralInviteEmail("friend@example.com", EVIL, link);
    expect(evil.subject).toBe("A friend gifted you a free month of Pinboard Studio");
    expect(evil.text).toContain("“WIN $5000 NOW at http[:]//evil[.]example/claim” uses Pinboard Studio");
    expect(autolinkable(withoutOwnLinks(evil.text, [link]))).toEqual([]);
    expect(evil.html).not.toContain("evil.example");
    const plain = referralInviteEmail("friend@example.com", "Maya Lindqvist", link);
    expect(plain.subject).toBe("Maya Lindqvist gifted you a free month of Pinboard Studio");
  });

  it("the verification e-mail greets only a plain name (its address was typed at sign-up)", () => {
    const link = "https://app.example/verify-email?uid=u&token=t";
    expect(verificationEmail("victim@example.com", EVIL, link).text.startsWith("Hi,\n")).toBe(true);
    expect(verificationEmail("victim@example.com", EVIL, link).text).not.toContain("evil");
    expect(verificationEmail("maya@example.com", "Maya", link).text.startsWith("Hi Maya,\n")).toBe(true);
  });
});
