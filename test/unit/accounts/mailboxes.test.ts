import { describe, expect, it } from "vitest";
import { canonicalMailbox, sameMailbox } from "../../../workers/domain/mailboxes.ts";

// Which inbox an address delivers to (decision 079): one free month per mailbox, no self-referral by alias,
// and the per-recipient limit of mail to typed addresses (decision 080).

describe("the canonical mailbox of an address", () => {
  it.each([
    ["me@example.com", "me@example.com"],
    ["  Me@Example.COM ", "me@example.com"],
    // +tag sub-addressing, for every domain.
    ["me+1@example.com", "me@example.com"],
    ["me+2@example.com", "me@example.com"],
    ["me+a+b@example.com", "me@example.com"],
    ["me+@example.com", "me@example.com"],
    ["me+spam@outlook.com", "me@outlook.com"],
    ["Me+News@Hotmail.com", "me@hotmail.com"],
    ["me+x@icloud.com", "me@icloud.com"],
    // Gmail ignores dots and case, and googlemail.com is gmail.com.
    ["M.E@gmail.com", "me@gmail.com"],
    ["m.e.@gmail.com", "me@gmail.com"],
    ["m..e+promo@GoogleMail.com", "me@gmail.com"],
    ["first.last@gmail.com", "firstlast@gmail.com"],
    // Nowhere else do dots go: they are part of the name.
    ["m.e@example.com", "m.e@example.com"],
    ["first.last@outlook.com", "first.last@outlook.com"],
    // Yahoo's "-" addresses hang off a separate base name, and "-" is part of many names: kept.
    ["mary-jane@yahoo.com", "mary-jane@yahoo.com"],
    ["base-shopping@yahoo.com", "base-shopping@yahoo.com"],
    // A trailing dot of the domain names the same host.
    ["me@example.com.", "me@example.com"],
    ["me@Example.com..", "me@example.com"],
    // An internationalised domain has one spelling (its ASCII form), whatever its case or width.
    ["me@BÜCHER.de", "me@xn--bcher-kva.de"],
    ["me@bücher.de", "me@xn--bcher-kva.de"],
    ["me@xn--bcher-kva.de", "me@xn--bcher-kva.de"],
    ["me@ｅｘａｍｐｌｅ.com", "me@example.com"],
    ["me@example。com", "me@example.com"],
    // A local part that is only a tag names no mailbox of its own: kept whole.
    ["+tag@example.com", "+tag@example.com"],
    // The last @ separates the domain.
    ['"odd@name"@example.com', '"odd@name"@example.com'],
    // Something that is not a host name is kept as written, lower-cased.
    ["me@[192.0.2.1]", "me@[192.0.2.1]"],
  ])("%s is %s", (address, mailbox) => {
    expect(canonicalMailbox(address)).toBe(mailbox);
  });

  it.each(["", "me", "me@", "@example.com", "me@.", "me@...", "..@gmail.com"])("%j is no mailbox", (address) => {
    expect(canonicalMailbox(address)).toBeNull();
  });

  it("says which addresses share an inbox", () => {
    expect(sameMailbox("me@example.com", "me+1@example.com")).toBe(true);
    expect(sameMailbox("me+1@example.com", "ME+2@EXAMPLE.COM")).toBe(true);
    expect(sameMailbox("M.E@gmail.com", "me@gmail.com")).toBe(true);
    expect(sameMailbox("m.e+x@googlemail.com", "me@gmail.com")).toBe(true);
    expect(sameMailbox("me@example.com", "me@example.org")).toBe(false);
    expect(sameMailbox("me@example.com", "you@example.com")).toBe(false);
    expect(sameMailbox("m.e@example.com", "me@example.com")).toBe(false);
    expect(sameMailbox("me@gmail.com", "me@gmail.co")).toBe(false);
    // Two things that are not addresses are not one mailbox.
    expect(sameMailbox("nobody", "nobody")).toBe(false);
  });
});
