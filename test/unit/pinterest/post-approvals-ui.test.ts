import { describe, expect, it } from "vitest";
import { goesOutText } from "../../../app/components/approvals/when.ts";
import { STATUS_LABELS, isWaiting } from "../../../app/lib/pinterest/queue.ts";

describe("post approvals as people read them", () => {
  it("says a waiting pin's time in plain words, and that a passed time moves on approval", () => {
    const now = Date.UTC(2026, 10, 26, 12, 0);
    const ahead = goesOutText(now + 3_600_000, now);
    expect(ahead).toMatch(/^\w+day,? \d{1,2} \w+ 2026,?( at)? \d{2}:\d{2}$/);
    expect(ahead).not.toMatch(/T\d{2}:|Z$/);
    expect(goesOutText(now - 3_600_000, now)).toMatch(/: this time has passed, so it goes out at the next free time once approved$/);
  });

  it("labels an awaiting pin in the queue, where it can still be edited and moved", () => {
    expect(STATUS_LABELS.awaiting).toBe("Awaiting approval");
    expect(isWaiting("awaiting")).toBe(true);
  });
});
