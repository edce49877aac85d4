import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CLIENT_VERSION } from "../../../app/lib/api-client.ts";
import { CREDITS_CHANGED_EVENT } from "../../../app/lib/credit-events.ts";
import { aiClient } from "../../../app/lib/generator/api.ts";
import { renderTemplateImage } from "../../../app/lib/pin-images.ts";
import { schedulePins } from "../../../app/lib/pinterest/scheduling-api.ts";

// Issue 13: every call that may spend credits tells the page to read the balance again, charged or refused.

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-app-version": CLIENT_VERSION } });
const outOfCredits = () => answer(402, { error: "You have run out of pin credits for this month. Upgrade your plan to get more.", upgradeUrl: "/pricing" });
const template = { title: "T", layers: [] };

let signals = 0;
beforeEach(() => {
  signals = 0;
  const target = new EventTarget();
  target.addEventListener(CREDITS_CHANGED_EVENT, () => (signals += 1));
  vi.stubGlobal("window", target);
});
afterEach(() => vi.unstubAllGlobals());

describe("calls that spend credits", () => {
  it("a download says so when charged and when refused; a render for scheduling (not charged) does not", async () => {
    vi.stubGlobal(
      "fetch",
      vi
        .fn()
        .mockResolvedValueOnce(answer(200, { url: "/media/x.jpeg", fileName: "x.jpeg", width: 1000, height: 1500 }))
        .mockResolvedValueOnce(outOfCredits()),
    );
    await renderTemplateImage({ post: { title: "A pin", template }, purpose: "download" } as never);
    expect(signals).toBe(1);
    await expect(renderTemplateImage({ post: { title: "A pin", template }, purpose: "download" } as never)).rejects.toMatchObject({ status: 402 });
    expect(signals).toBe(2);

    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(answer(200, { url: "/media/y.jpeg", fileName: "y.jpeg", width: 1000, height: 1500 })));
    await renderTemplateImage({ post: { title: "A pin", template }, purpose: "schedule" } as never);
    expect(signals).toBe(2);
  });

  it("scheduling says so, charged or refused", async () => {
    await schedulePins([], async () => ({ scheduledPins: [], repeatingPins: [], creditsCharged: 1 }) as never);
    expect(signals).toBe(1);
    await expect(
      schedulePins([], async () => {
        throw new Error("402");
      }),
    ).rejects.toThrow("402");
    expect(signals).toBe(2);
  });

  it("AI rewrites and alt text say so, charged or refused", async () => {
    vi.stubGlobal(
      "fetch",
      vi
        .fn()
        .mockResolvedValueOnce(answer(200, { results: ["A new title"] }))
        .mockResolvedValueOnce(outOfCredits())
        .mockResolvedValueOnce(answer(200, { altText: "Berries in a bowl" })),
    );
    await expect(aiClient.rewrite({ prompt: "Berry bowls", numResults: 1 } as never, false)).resolves.toEqual(["A new title"]);
    await expect(aiClient.rewrite({ prompt: "Berry bowls", numResults: 1 } as never, true)).rejects.toMatchObject({ status: 402 });
    await expect(aiClient.altText({ imageURL: "https://x.example/a.jpg", aiLanguage: "English" } as never)).resolves.toBe("Berries in a bowl");
    expect(signals).toBe(3);
  });
});
