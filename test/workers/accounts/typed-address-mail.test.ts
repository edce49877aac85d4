import { describe, expect, it } from "vitest";
import { canonicalMailbox } from "../../../workers/domain/mailboxes.ts";
import { REVIEWER_INVITE_NOT_SENT } from "../../../workers/services/pinterest/approvals.ts";
import { referralInviteEmail, reviewerInviteEmail, verificationEmail } from "../../../workers/services/accounts/emails.ts";
import { bearer, json, signUpUser, uniqueEmail, type SentEmail, type TestUser } from "./accounts-support.ts";
import { connectProfile, get, pinterestName, post, type ConnectedProfile } from "../pinterest/scheduling-support.ts";
import { autolinkable, withoutOwnLinks } from "../autolinks.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Issue 37, defect 2 (decision 080): e-mail to an address a user typed (reviewer invites, gift invites,
// the newsletter's Success Plan)
// passes one gate, with a daily limit per sender (20) and per recipient mailbox (5) across all kinds; a
// pending reviewer invite is not e-mailed again within a day; user text is quoted and inert, and a subject
// carries at most a plain name.

const INVITE = "/api/approvals/reviewers";
const GIFT = "/api/referrals/sendReferralInvite";
const EVIL = "WIN $5000 NOW at http://evil.example/claim";
const RECIPIENT_REFUSED = /^This address has already had several e-mails from Pinboard Studio today\. Please try again in 24 hours\.$/;
const SENDER_REFUSED = /^You have asked us to e-mail a lot of people today\. Please try again in 24 hours\.$/;

const alias = (email: string, tag: string) => email.replace("@", `+${tag}@`);

/** Every e-mail the stand-in delivered to any address of this inbox. */
async function mailsToInbox(address: string): Promise<SentEmail[]> {
  const inbox = canonicalMailbox(address);
  return (await sandbox<SentEmail[]>("/outbox")).filter((mail) => mail.to.some((to) => canonicalMailbox(to) === inbox));
}

async function ownerWithProfile(fields: Parameters<typeof signUpUser>[0] = {}): Promise<{ owner: TestUser; profile: ConnectedProfile }> {
  const owner = await signUpUser(fields);
  return { owner, profile: await connectProfile(owner, pinterestName("gate"), { settings: null }) };
}

const invite = (owner: TestUser, profile: ConnectedProfile, email: string) => post(owner, INVITE, { pinterestProfileUsername: profile.username, email });

async function giftFrom(user: TestUser, email: string) {
  const { referralCode } = await read(await get(user, "/api/referrals/getReferralCode"));
  return app(GIFT, json({ email, referralCode }, bearer(user.tokens)));
}

async function reviewersOf(owner: TestUser, profile: ConnectedProfile): Promise<{ id: string; email: string }[]> {
  const overview = await read(await get(owner, "/api/approvals"));
  return overview.profiles.find((p: { pinterestProfileUsername: string }) => p.pinterestProfileUsername === profile.username).reviewers;
}

describe("reviewer invites to typed addresses", () => {
  it("says in plain words when the e-mail provider fails, with 502, and keeps no reviewer, so trying again works", async () => {
    const { owner, profile } = await ownerWithProfile();
    const reviewer = uniqueEmail("reviewer");
    await sandbox("/faults", { method: "POST", json: { service: "email", method: "POST", path: "/emails", status: 503, times: 1 } });
    const failed = await invite(owner, profile, reviewer);
    expect(failed.status).toBe(502);
    expect(await read(failed)).toEqual({ error: REVIEWER_INVITE_NOT_SENT });
    expect(await reviewersOf(owner, profile)).toEqual([]);
    expect((await invite(owner, profile, reviewer)).status).toBe(201);
    expect(await mailsToInbox(reviewer)).toHaveLength(1);
  });

  it("25 invites from one owner to one victim's inbox: 5 e-mails, the rest 429 saying when, and nothing kept of them", async () => {
    const { owner, profile } = await ownerWithProfile();
    const victim = uniqueEmail("victim");
    const statuses: number[] = [];
    for (let i = 1; i <= 25; i += 1) {
      const response = await invite(owner, profile, alias(victim, `n${i}`));
      statuses.push(response.status);
      if (response.status === 429) {
        expect((await read(response)).error).toMatch(RECIPIENT_REFUSED);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
      }
    }
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(20).fill(429)]);
    expect(await mailsToInbox(victim)).toHaveLength(5);
    // A refused invite adds no reviewer the owner would think was invited.
    expect((await reviewersOf(owner, profile)).map((r) => r.email).sort()).toEqual([1, 2, 3, 4, 5].map((i) => alias(victim, `n${i}`)).sort());
  });

  it("25 invites from one owner to 25 people: 20 e-mails, then 429 for the sender", async () => {
    const { owner, profile } = await ownerWithProfile();
    const people = Array.from({ length: 25 }, () => uniqueEmail("person"));
    const statuses: number[] = [];
    for (const person of people) {
      const response = await invite(owner, profile, person);
      statuses.push(response.status);
      if (response.status === 429) expect((await read(response)).error).toMatch(SENDER_REFUSED);
    }
    expect(statuses).toEqual([...Array(20).fill(201), ...Array(5).fill(429)]);
    for (const person of people.slice(20)) expect(await mailsToInbox(person)).toEqual([]);
  });

  it("two owners targeting one victim share the victim's daily limit", async () => {
    const [first, second] = await Promise.all([ownerWithProfile(), ownerWithProfile()]);
    const victim = uniqueEmail("victim");
    for (let i = 1; i <= 3; i += 1) expect((await invite(first.owner, first.profile, alias(victim, `a${i}`))).status).toBe(201);
    for (let i = 1; i <= 2; i += 1) expect((await invite(second.owner, second.profile, alias(victim, `b${i}`))).status).toBe(201);
    for (const [{ owner, profile }, tag] of [
      [second, "b3"],
      [first, "a4"],
    ] as const) {
      const refused = await invite(owner, profile, alias(victim, tag));
      expect(refused.status).toBe(429);
      expect((await read(refused)).error).toMatch(RECIPIENT_REFUSED);
    }
    expect(await mailsToInbox(victim)).toHaveLength(5);
    // Someone else is still reachable: the limit is the victim's, not the owners'.
    expect((await invite(second.owner, second.profile, uniqueEmail("colleague"))).status).toBe(201);
  });

  it("does not e-mail a pending invite again within a day; the link already sent keeps working; after a day it is sent anew", async () => {
    const { owner, profile } = await ownerWithProfile();
    const reviewer = uniqueEmail("reviewer");
    const first = await invite(owner, profile, reviewer);
    expect(first.status).toBe(201);
    const sent = await read(first);
    expect(sent).toMatchObject({ sent: true, message: `Invitation sent to ${reviewer}.` });
    const [mail] = await mailsToInbox(reviewer);
    const token = new URL(mail.links.find((link) => new URL(link).pathname === "/post-approvals")!).searchParams.get("review")!;

    for (let i = 0; i < 8; i += 1) {
      const again = await invite(owner, profile, reviewer);
      expect(again.status).toBe(200);
      expect(await read(again)).toEqual({
        reviewer: sent.reviewer,
        sent: false,
        inviteSentAt: sent.inviteSentAt,
        message: `An invitation is already on its way to ${reviewer}: it was e-mailed less than a day ago, so it was not sent again.`,
      });
    }
    expect(await mailsToInbox(reviewer)).toHaveLength(1);
    expect((await app("/api/approvals/review", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // Invites not sent are not counted: the owner can still invite others, the reviewer can still be written to.
    expect((await invite(owner, profile, uniqueEmail("other"))).status).toBe(201);

    // A day later the owner may send a new link, which replaces the old one.
    await testEnv.DB.prepare(`UPDATE approval_reviewers SET invite_sent_at = invite_sent_at - 86400000 - 1000 WHERE id = ?`).bind(sent.reviewer.id).run();
    const later = await invite(owner, profile, reviewer);
    expect(later.status).toBe(201);
    expect(await read(later)).toMatchObject({ sent: true, reviewer: { id: sent.reviewer.id } });
    expect(await mailsToInbox(reviewer)).toHaveLength(2);
    expect((await app("/api/approvals/review", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it("refuses an alias of the owner's own address as a reviewer", async () => {
    const { owner, profile } = await ownerWithProfile();
    const refused = await invite(owner, profile, alias(owner.email, "review").toUpperCase());
    expect(refused.status).toBe(400);
    expect(await read(refused)).toMatchObject({ field: "email" });
  });

  it("shows the issue's owner name quoted in the body, never as a link, and not in the subject", async () => {
    // First and last name together read exactly as the issue's.
    const { owner, profile } = await ownerWithProfile({ firstName: "WIN $5000 NOW at", lastName: "http://evil.example/claim" });
    const victim = uniqueEmail("victim");
    expect((await invite(owner, profile, victim)).status).toBe(201);
    const [mail] = await mailsToInbox(victim);
    expect(mail.subject).toBe("You are invited to approve Pinterest pins");
    expect(mail.subject).not.toMatch(/WIN|5000|evil/i);
    expect(mail.text).toContain(`“WIN $5000 NOW at http[:]//evil[.]example/claim” schedules pins to the Pinterest profile “${profile.username}”`);
    expect(mail.html).toContain("“WIN $5000 NOW at http[:]//evil[.]example/claim”");
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain("evil.example");
      expect(part).not.toContain("http://evil");
    }
    // The only links are the review link (the stand-in lists the HTML's hrefs and the text's URLs).
    expect(mail.links.length).toBeGreaterThan(0);
    for (const link of mail.links) expect(new URL(link).pathname).toBe("/post-approvals");
    for (const [tag] of mail.html.matchAll(/<a\b[^>]*>/g)) expect(tag).toContain("/post-approvals?review=");
    // Nothing else in the text a mail client would turn into a link.
    expect(autolinkable(withoutOwnLinks(mail.text, mail.links))).toEqual([]);
  });
});

describe("gift invites share the gate", () => {
  it("counts gifts and reviewer invites to one inbox together", async () => {
    const victim = uniqueEmail("victim");
    const { owner, profile } = await ownerWithProfile();
    for (let i = 1; i <= 3; i += 1) expect((await invite(owner, profile, alias(victim, `r${i}`))).status).toBe(201);
    const [maya, tom, ana] = await Promise.all([signUpUser({ firstName: "Maya" }), signUpUser({ firstName: "Tom" }), signUpUser({ firstName: "Ana" })]);
    expect((await giftFrom(maya, alias(victim, "g1"))).status).toBe(200);
    expect((await giftFrom(tom, alias(victim, "g2"))).status).toBe(200);
    const refused = await giftFrom(ana, alias(victim, "g3"));
    expect(refused.status).toBe(429);
    expect((await read(refused)).error).toMatch(RECIPIENT_REFUSED);
    expect((await invite(owner, profile, alias(victim, "r4"))).status).toBe(429);
    expect(await mailsToInbox(victim)).toHaveLength(5);
    // A refused gift is no gift: the onboarding step stays open.
    const me = await read(await get(ana, "/api/user"));
    expect(me.credentials.onboardingChecklist.find((step: { name: string }) => step.name === "inviteFriend")).toMatchObject({ isChecked: false });
  });

  it("counts one sender's gifts and reviewer invites together", async () => {
    const { owner, profile } = await ownerWithProfile();
    for (let i = 0; i < 10; i += 1) expect((await giftFrom(owner, uniqueEmail("friend"))).status).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await invite(owner, profile, uniqueEmail("reviewer"))).status).toBe(201);
    const refused = await invite(owner, profile, uniqueEmail("reviewer"));
    expect(refused.status).toBe(429);
    expect((await read(refused)).error).toMatch(SENDER_REFUSED);
  });
});

describe("the newsletter's Success Plan shares the gate", () => {
  const randomIp = () => `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  const subscribe = (email: string) => app("/api/user/newsletterSignup", json({ email }, { "cf-connecting-ip": randomIp() }));

  it("counts signups for one inbox from many addresses, and a refused signup records nothing", async () => {
    const victim = uniqueEmail("victim");
    for (let i = 1; i <= 5; i += 1) expect((await subscribe(alias(victim, `n${i}`))).status).toBe(200);
    const refused = await subscribe(alias(victim, "n6"));
    expect(refused.status).toBe(429);
    expect((await read(refused)).error).toMatch(RECIPIENT_REFUSED);
    expect(await mailsToInbox(victim)).toHaveLength(5);
    expect(await testEnv.DB.prepare(`SELECT 1 FROM newsletter_subscribers WHERE email = ?`).bind(alias(victim, "n6")).first()).toBeNull();
  });
});

describe("the e-mails carry user text quoted, inert and out of the subject", () => {
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
