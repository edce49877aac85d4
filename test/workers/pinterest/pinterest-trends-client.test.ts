import { describe, expect, it } from "vitest";
import { PinterestApiError } from "../../../workers/integrations/pinterest.ts";
import { pinterestClient } from "../../../workers/services/pinterest/pinterest-connection.ts";
import { sandbox, testEnv } from "../support.ts";

// The Pinterest client's terms and trends calls inside workerd, configured from the
// worker's bindings, against the sandbox's stand-in (shared with other test files:
// each test uses a region or term no other file uses).
describe("the Pinterest client's keyword research calls", () => {
  it("gets a client token and reads suggested terms, related terms and a region's trends", async () => {
    const client = pinterestClient(testEnv);
    const { accessToken } = await client.clientToken(["ads:read", "user_accounts:read"]);
    const suggested = await client.suggestedTerms(accessToken, "garden", 5);
    expect(suggested).toHaveLength(5);
    expect(suggested.every((term) => term.startsWith("garden "))).toBe(true);
    const related = await client.relatedTerms(accessToken, ["garden ideas"]);
    expect(related.get("garden ideas")).toEqual(expect.arrayContaining(["backyard landscaping"]));
    const { trends } = await client.trendingKeywords(accessToken, "NL+BE+LU", "yearly", { includeKeywords: ["garden"], limit: 5 });
    expect(trends.length).toBeGreaterThan(0);
    expect(trends.every((trend) => trend.keyword.includes("garden"))).toBe(true);
    expect(Object.keys(trends[0].time_series ?? {})).toHaveLength(52);
  });

  it("turns Pinterest's 429 into a rate_limited error that says when to retry", async () => {
    const client = pinterestClient(testEnv);
    const { accessToken } = await client.clientToken(["user_accounts:read"]);
    await sandbox("/faults", {
      method: "POST",
      json: { service: "pinterest", path: "/v5/trends/keywords/PL+RO+HU+SK+CZ/top/growing", status: 429, headers: { "retry-after": "90" } },
    });
    const error = await client.trendingKeywords(accessToken, "PL+RO+HU+SK+CZ", "growing").then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(PinterestApiError);
    expect(error).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 90_000 });
  });
});
