import { describe, expect, it } from "vitest";
import { greeting, inertText, plainName, quoted } from "../../../workers/domain/mail-text.ts";
import { autolinkable } from "../../workers/autolinks.ts";

// User-chosen text in e-mail to typed addresses (decision 080): quoted and inert in the body, only a plain
// name in a subject (the e-mails themselves: test/workers/accounts/typed-address-mail.test.ts). The owner name, exactly:
const EVIL = "WIN $5000 NOW at http://evil.example/claim";

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

  it.each([EVIL, "evil.example", "Maya2", "Dr. Maya", "Maya <maya@example.com>", "-Maya", "Maya-", "Maya  --  Lind", "", "   ", "A".repeat(41)])(
    "%j is not a plain name",
    (name) => {
      expect(plainName(name)).toBeNull();
    },
  );

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
