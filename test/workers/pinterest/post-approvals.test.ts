import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEW_LINK_INVALID_MESSAGE } from "../../../contracts/pinterest/approvals.ts";
import { reviewBatchEmail } from "../../../workers/services/accounts/emails.ts";
import { bearer, json, lastLinkTo, outboxFor, signUpUser, signUpVerifiedUser, uniqueEmail, type TestUser } from "../accounts/accounts-support.ts";
import {
  connectProfile,
  get,
  grantCredits,
  imagePin,
  pinterestName,
  post,
  remainingCredits,
  sandboxPins,
  schedulerOf,
  type ConnectedProfile,
} from "./scheduling-support.ts";
import { app, eventually, read, testEnv } from "../support.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";

/** Post approvals (issue 20, decision 052): the scheduler, reviewers' links, decisions and credits. */

let owner: TestUser;
beforeAll(async () => {
  // Verified: the review e-mails go to the owner's address only once it is (decision 080).
  owner = await signUpVerifiedUser({ firstName: "Ines" });
  await grantCredits(owner, 100);
});

function put(user: TestUser, path: string, body: unknown) {
  return app(path, { ...json(body, bearer(user.tokens)), method: "PUT" });
}

async function requireApproval(profile: ConnectedProfile, on = true) {
  const response = await put(owner, "/api/approvals/settings", { pinterestProfileUsername: profile.username, approvalRequired: on });
  expect(response.status).toBe(200);
  return read(response);
}

/** Invites a reviewer and answers the token of the link they were e-mailed. */
async function inviteReviewer(profile: ConnectedProfile, email = uniqueEmail("reviewer")) {
  const response = await post(owner, "/api/approvals/reviewers", { pinterestProfileUsername: profile.username, email });
  expect(response.status).toBe(201);
  const { reviewer } = await read(response);
  const link = await lastLinkTo(email, "/post-approvals");
  return { id: reviewer.id as string, email, token: link.searchParams.get("review") as string };
}

async function schedule(profile: ConnectedProfile, fields: Record<string, unknown> = {}) {
  const response = await post(
    owner,
    "/api/scheduling/schedulePin",
    imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + 3_600_000, ...fields }),
  );
  expect(response.status).toBe(201);
  return (await read(response)).scheduledPin as { id: string; title: string; status: string; scheduledTimeUTCTimestamp: number };
}

/** Makes pins due (their time passed a minute ago), as the clock would. */
function makeDue(profile: ConnectedProfile, ids: string[]) {
  const at = Date.now() - 60_000;
  return runInDurableObject(schedulerOf(profile), (_instance, state) => {
    for (const id of ids) state.storage.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ? WHERE id = ?`, at, at, id);
  });
}

function review(token: string, decisions: { pinId: string; decision: "approve" | "reject"; comment?: string }[]) {
  return app("/api/approvals/review", json({ decisions }, { authorization: `Bearer ${token}` }));
}

function reviewQueue(token: string) {
  return app("/api/approvals/review", { headers: { authorization: `Bearer ${token}` } });
}

describe("post approvals", () => {
  it("never posts a pin awaiting approval, however many times the alarm rings", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_wait"));
    await requireApproval(profile);
    const pin = await schedule(profile);
    expect(pin.status).toBe("awaiting");
    await makeDue(profile, [pin.id]);
    const scheduler = schedulerOf(profile);
    await scheduler.rearm();
    await runDurableObjectAlarm(scheduler);
    await scheduler.rerunAlarm();
    expect(await scheduler.counts()).toMatchObject({ awaiting: 1, posting: 0, posted: 0 });
    expect(await sandboxPins(profile.username)).toEqual([]);
    expect((await scheduler.findPin(pin.id))?.status).toBe("awaiting");
  });

  it("posts an approved pin, and moves one whose time passed while it waited to the next free slot", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_ok"));
    await requireApproval(profile);
    const reviewer = await inviteReviewer(profile);
    const onTime = await schedule(profile);
    const late = await schedule(profile, { scheduledTime: Date.now() + 7_200_000 });
    await makeDue(profile, [late.id]);

    const queue = await read(await reviewQueue(reviewer.token));
    expect(queue.pinterestProfileUsername).toBe(profile.username);
    expect(queue.pins.map((p: { id: string }) => p.id).sort()).toEqual([onTime.id, late.id].sort());

    const before = Date.now();
    const answer = await review(reviewer.token, [
      { pinId: onTime.id, decision: "approve", comment: "Lovely" },
      { pinId: late.id, decision: "approve" },
    ]);
    expect(answer.status).toBe(200);
    const { results } = await read(answer);
    expect(results[0]).toMatchObject({
      pinId: onTime.id,
      ok: true,
      decision: "approved",
      moved: false,
      scheduledTimeUTCTimestamp: onTime.scheduledTimeUTCTimestamp,
    });
    expect(results[1]).toMatchObject({ pinId: late.id, ok: true, decision: "approved", moved: true });
    expect(results[1].scheduledTimeUTCTimestamp).toBeGreaterThan(before);
    const scheduler = schedulerOf(profile);
    expect((await scheduler.findPin(late.id))?.status).toBe("scheduled");

    // The late pin was not posted late by surprise; the on-time one posts when its time comes.
    await runDurableObjectAlarm(scheduler);
    expect(await sandboxPins(profile.username)).toEqual([]);
    await makeDue(profile, [onTime.id]);
    await scheduler.rearm();
    // The alarm rings at once (its time has passed); a second ring joins the run going.
    await runDurableObjectAlarm(scheduler);
    await scheduler.rerunAlarm();
    const posted = await eventually(
      async () => {
        const pins = await sandboxPins(profile.username);
        return pins.length > 0 ? pins : undefined;
      },
      10_000,
      "the approved pin to post",
    );
    expect(posted.map((p) => p.title)).toEqual([onTime.title]);
    expect((await scheduler.findPin(onTime.id))?.status).toBe("posted");

    // The owner sees the decisions with the comment, and got one e-mail for the batch.
    const overview = await read(await get(owner, "/api/approvals"));
    const mine = overview.profiles.find((p: { pinterestProfileUsername: string }) => p.pinterestProfileUsername === profile.username);
    expect(mine.decisions.map((d: { pinId: string; decision: string; comment: string }) => [d.pinId, d.decision, d.comment]).sort()).toEqual(
      [
        [onTime.id, "approved", "Lovely"],
        [late.id, "approved", ""],
      ].sort(),
    );
    const mails = (await outboxFor(owner.email)).filter((mail) => mail.subject.includes(profile.username));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain("reviewed 2 pins");
    expect(mails[0].text).toContain("Comment: Lovely");
  });

  it("takes a rejected pin out of the queue and returns its credit once, as a reversal", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_no"));
    await requireApproval(profile);
    const reviewer = await inviteReviewer(profile);
    const start = await remainingCredits(owner);
    const pin = await schedule(profile);
    expect(await remainingCredits(owner)).toBe(start - 1);

    const first = await read(await review(reviewer.token, [{ pinId: pin.id, decision: "reject", comment: "Wrong colours" }]));
    expect(first.results[0]).toEqual({ pinId: pin.id, ok: true, decision: "rejected", creditsReturned: 1 });
    expect(await remainingCredits(owner)).toBe(start);
    expect(await schedulerOf(profile).findPin(pin.id)).toBeNull();

    const again = await read(await review(reviewer.token, [{ pinId: pin.id, decision: "reject" }]));
    expect(again.results[0]).toEqual({ pinId: pin.id, ok: true, decision: "rejected", creditsReturned: 0 });
    expect(await remainingCredits(owner)).toBe(start);
    const reversals = await ledgerOf(testEnv, owner.userId)
      .prepare(`SELECT amount FROM credit_ledger WHERE user_id = ? AND reference = ?`)
      .bind(owner.userId, `reversal:scheduled:${pin.id}`)
      .all();
    expect(reversals.results).toEqual([{ amount: 1 }]);
    // A second rejection is not a second e-mail either.
    expect((await outboxFor(owner.email)).filter((mail) => mail.subject.includes(profile.username))).toHaveLength(1);
  });

  it("reviews a batch one pin at a time: a pin not waiting is refused alone", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_bulk"));
    await requireApproval(profile);
    const reviewer = await inviteReviewer(profile);
    const a = await schedule(profile);
    const b = await schedule(profile, { scheduledTime: Date.now() + 5_400_000 });
    const { results } = await read(
      await review(reviewer.token, [
        { pinId: a.id, decision: "approve" },
        { pinId: "no-such-pin", decision: "approve" },
        { pinId: b.id, decision: "reject" },
      ]),
    );
    expect(results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true]);
    expect(results[1].error).toBe("This pin is no longer waiting for approval.");
    expect(await schedulerOf(profile).counts()).toMatchObject({ awaiting: 0, scheduled: 1 });
  });

  it("refuses a reviewer everywhere outside their profile's approvals", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_mine"));
    const other = await connectProfile(owner, pinterestName("ines_other"));
    await requireApproval(profile);
    await requireApproval(other);
    const reviewer = await inviteReviewer(profile);
    const otherPin = await schedule(other);
    const headers = { authorization: `Bearer ${reviewer.token}` };

    // Another profile's pin, even of the same owner: not theirs to decide, and not shown.
    const { results } = await read(await review(reviewer.token, [{ pinId: otherPin.id, decision: "reject" }]));
    expect(results[0]).toMatchObject({ ok: false });
    expect((await schedulerOf(other).findPin(otherPin.id))?.status).toBe("awaiting");
    expect((await read(await reviewQueue(reviewer.token))).pins).toEqual([]);

    // The owner's account, the owner's approvals and queues, billing: the link is no sign-in.
    for (const [method, path, body] of [
      ["GET", "/api/approvals", undefined],
      ["PUT", "/api/approvals/settings", { pinterestProfileUsername: profile.username, approvalRequired: false }],
      ["POST", "/api/approvals/reviewers", { pinterestProfileUsername: profile.username, email: uniqueEmail("friend") }],
      ["DELETE", `/api/approvals/reviewers/${reviewer.id}`, undefined],
      ["GET", "/api/user", undefined],
      ["GET", "/api/user/credits", undefined],
      ["GET", `/api/scheduling/getScheduledPins/${profile.username}`, undefined],
      ["POST", "/api/stripeSubscriptions/startStripeSubscription", { planId: "starter-monthly" }],
      ["POST", "/api/subscriptions/cancelSubscription", { subscriptionID: "I-ABC123", cancelReason: "x" }],
    ] as const) {
      const response = await app(path, body ? { ...json(body, headers), method } : { method, headers });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect(
      (await read(await get(owner, "/api/approvals"))).profiles.find(
        (p: { pinterestProfileUsername: string }) => p.pinterestProfileUsername === profile.username,
      ).approvalRequired,
    ).toBe(true);
  });

  it("refuses a removed reviewer's link, a forged one and no link at all", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_gone"));
    await requireApproval(profile);
    const reviewer = await inviteReviewer(profile);
    const pin = await schedule(profile);
    expect((await reviewQueue(reviewer.token)).status).toBe(200);

    const removed = await app(`/api/approvals/reviewers/${reviewer.id}`, { method: "DELETE", headers: bearer(owner.tokens) });
    expect(removed.status).toBe(200);
    for (const response of [await reviewQueue(reviewer.token), await review(reviewer.token, [{ pinId: pin.id, decision: "approve" }])]) {
      expect(response.status).toBe(401);
      expect((await read(response)).error).toBe(REVIEW_LINK_INVALID_MESSAGE);
    }
    expect((await schedulerOf(profile).findPin(pin.id))?.status).toBe("awaiting");
    expect((await reviewQueue(`${reviewer.token.slice(0, -4)}AAAA`)).status).toBe(401);
    expect((await app("/api/approvals/review")).status).toBe(401);
    // An owner's sign-in is no review link either.
    expect((await reviewQueue(owner.tokens.idToken)).status).toBe(401);
  });

  it("turning approval off puts the waiting pins in the queue; another user cannot touch the settings", async () => {
    const profile = await connectProfile(owner, pinterestName("ines_off"));
    await requireApproval(profile);
    const pin = await schedule(profile);
    const stranger = await signUpUser({ firstName: "Tom" });
    const refused = await put(stranger, "/api/approvals/settings", { pinterestProfileUsername: profile.username, approvalRequired: false });
    expect(refused.status).toBe(404);
    const off = await requireApproval(profile, false);
    expect(off).toMatchObject({ approvalRequired: false, releasedCount: 1 });
    expect((await schedulerOf(profile).findPin(pin.id))?.status).toBe("scheduled");
    expect((await schedule(profile)).status).toBe("scheduled");
  });

  it("tells the owner about a review batch in one e-mail: each pin, its decision, comment and returned credit", () => {
    const mail = reviewBatchEmail(
      "owner@example.com",
      "Ines",
      "linen_studio",
      "client@example.com",
      [
        { title: "Napkins", decision: "approved", comment: "", moved: true, creditsReturned: 0 },
        { title: "Table <runner>", decision: "rejected", comment: "Wrong colours", moved: false, creditsReturned: 1 },
      ],
      "https://app.example/post-approvals",
    );
    expect(mail.subject).toBe("client@example.com reviewed 2 pins for linen_studio (1 approved, 1 rejected)");
    expect(mail.text).toContain('"Napkins": approved (its time had passed while it waited, so it moved to the next free slot)');
    expect(mail.text).toContain('"Table <runner>": rejected (its credit was returned). Comment: Wrong colours');
    expect(mail.html).toContain("Table &lt;runner&gt;");
    expect(mail.html).not.toContain("<runner>");
  });
});
