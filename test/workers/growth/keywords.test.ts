import { beforeAll, describe, expect, it } from "vitest";
import { KEYWORD_TRIAL_USED, type KeywordResearch } from "../../../contracts/growth/keywords.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile } from "../pinterest/scheduling-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Keyword research (/api/keywords/*, docs/decisions/045-keyword-research.md) against the
// Pinterest stand-in. The sandbox is shared with other test files: each test uses its own
// seed keyword and, where it counts or faults Pinterest calls, a trends region no other file uses.

interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  at: string;
}

const research = (query: string, init: RequestInit = {}) => app(`/api/keywords/research?${query}`, init);
const signedIn = (user: TestUser) => ({ headers: bearer(user.tokens) });
const visitor = (ip: string) => ({ headers: { "cf-connecting-ip": ip } });

async function pinterestRequests(since: string, match: (request: RecordedRequest) => boolean) {
  const all = await sandbox<RecordedRequest[]>("/requests?service=pinterest");
  return all.filter((request) => request.at >= since && match(request));
}

describe("keyword research", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Kira" });
  });

  it("refuses a missing, over-long or comma-separated keyword and an unknown region with 400 naming the field", async () => {
    for (const [query, field] of [
      ["region=US", "keyword"],
      ["keyword=&region=US", "keyword"],
      ["keyword=a", "keyword"],
      [`keyword=${"k".repeat(101)}`, "keyword"],
      ["keyword=cake,bread", "keyword"],
      ["keyword=cake&region=UK", "region"],
    ]) {
      const response = await research(query, signedIn(user));
      expect(response.status, query).toBe(400);
      expect((await read(response)).field, query).toBe(field);
    }
  });

  it("gives suggested and related terms with weekly, monthly and yearly change and a year of weekly interest", async () => {
    const response = await research("keyword=Christmas%20Nails&region=DE", signedIn(user));
    expect(response.status).toBe(200);
    const answer = (await read(response)) as KeywordResearch;
    expect(answer).toMatchObject({ keyword: "christmas nails", region: "DE", cached: false });
    expect(answer.trialSearchesLeft).toBeUndefined();
    expect(answer.weeks).toHaveLength(52);
    expect(answer.weeks).toEqual([...answer.weeks].sort());
    const [seed, ...others] = answer.terms;
    expect(seed).toMatchObject({ term: "christmas nails", sources: ["seed"] });
    expect(seed.trendTypes).toContain("monthly");
    expect(seed.series).toHaveLength(52);
    expect(Math.max(...seed.series!)).toBe(100);
    for (const change of [seed.weeklyChange, seed.monthlyChange, seed.yearlyChange]) expect(typeof change).toBe("number");
    const suggested = others.filter((term) => term.sources.includes("suggested"));
    expect(suggested.length).toBeGreaterThanOrEqual(5);
    expect(suggested.every((term) => term.term.startsWith("christmas nails "))).toBe(true);
    const related = others.filter((term) => term.sources.includes("related"));
    expect(related.map((term) => term.term)).toEqual(expect.arrayContaining(["holiday nails", "nail ideas"]));
    // Related terms carry their own trend figures.
    expect(related.find((term) => term.term === "nail ideas")!.series).toHaveLength(52);
  });

  it("keeps an answer 24 hours per term and region: a repeat asks Pinterest nothing, another region or an expired answer asks again", async () => {
    const since = new Date().toISOString();
    const first = (await read(await research("keyword=linen%20napkin%20folding&region=IT", signedIn(user)))) as KeywordResearch;
    expect(first.cached).toBe(false);
    const askedOnce = await pinterestRequests(since, (request) => request.path === "/v5/terms/suggested" && request.query.term === "linen napkin folding");
    expect(askedOnce).toHaveLength(1);
    expect(await pinterestRequests(since, (request) => request.path.startsWith("/v5/trends/keywords/IT/"))).toHaveLength(4);

    const again = (await read(await research("keyword=Linen%20Napkin%20Folding&region=IT", signedIn(user)))) as KeywordResearch;
    expect(again).toEqual({ ...first, cached: true });
    expect(await pinterestRequests(since, (request) => request.path === "/v5/terms/suggested" && request.query.term === "linen napkin folding")).toHaveLength(
      1,
    );
    expect(await pinterestRequests(since, (request) => request.path.startsWith("/v5/trends/keywords/IT/"))).toHaveLength(4);

    const elsewhere = (await read(await research("keyword=linen%20napkin%20folding&region=ES", signedIn(user)))) as KeywordResearch;
    expect(elsewhere).toMatchObject({ region: "ES", cached: false });

    // A day later the answer is stale: Pinterest is asked again.
    await testEnv.DB.prepare("UPDATE keyword_research_cache SET expires_at = ?1 WHERE term_key = ?2 AND region = 'IT'")
      .bind(Date.now() - 1, "linen napkin folding")
      .run();
    const later = (await read(await research("keyword=linen%20napkin%20folding&region=IT", signedIn(user)))) as KeywordResearch;
    expect(later.cached).toBe(false);
    expect(await pinterestRequests(since, (request) => request.path === "/v5/terms/suggested" && request.query.term === "linen napkin folding")).toHaveLength(
      3,
    );
  });

  it("answers Pinterest's rate limit with 429 and when to try again in words, caches nothing, and works once Pinterest does", async () => {
    await sandbox("/faults", {
      method: "POST",
      json: {
        service: "pinterest",
        path: "/v5/trends/keywords/SE+DK+FI+NO/top/seasonal",
        status: 429,
        headers: { "retry-after": "120" },
        body: { code: 8, message: "This request exceeded a rate limit." },
      },
    });
    const limited = await research("keyword=sauna%20decor&region=SE%2BDK%2BFI%2BNO", signedIn(user));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("120");
    expect((await read(limited)).error).toBe("Pinterest is limiting how often we can ask it for keyword data. Please try again in 2 minutes.");
    const cached = await testEnv.DB.prepare("SELECT count(*) AS n FROM keyword_research_cache WHERE term_key = 'sauna decor'").first<{ n: number }>();
    expect(cached!.n).toBe(0);

    const later = await research("keyword=sauna%20decor&region=SE%2BDK%2BFI%2BNO", signedIn(user));
    expect(later.status).toBe(200);
    expect(((await read(later)) as KeywordResearch).cached).toBe(false);
  });

  it("says so plainly when Pinterest does not answer", async () => {
    await sandbox("/faults", { method: "POST", json: { service: "pinterest", path: "/v5/trends/keywords/NL+BE+LU/top/growing", status: 503 } });
    const failed = await research("keyword=stroopwafel%20recipe&region=NL%2BBE%2BLU", signedIn(user));
    expect(failed.status).toBe(502);
    expect((await read(failed)).error).toBe("Pinterest did not answer with keyword data. Please try again in a moment.");
  });

  it("lets a visitor try one search; the next needs an account, and a failed try is not spent", async () => {
    const ip = "203.0.113.71";
    await sandbox("/faults", { method: "POST", json: { service: "pinterest", path: "/v5/trends/keywords/AR/top/yearly", status: 503 } });
    expect((await research("keyword=empanadas&region=AR", visitor(ip))).status).toBe(502);

    const first = await research("keyword=empanadas&region=AR", visitor(ip));
    expect(first.status).toBe(200);
    expect(((await read(first)) as KeywordResearch).trialSearchesLeft).toBe(0);
    const second = await research("keyword=asado&region=AR", visitor(ip));
    expect(second.status).toBe(401);
    expect((await read(second)).error).toBe(KEYWORD_TRIAL_USED);
    // A cached answer is a search too.
    expect((await research("keyword=empanadas&region=AR", visitor(ip))).status).toBe(401);
    expect((await research("keyword=empanadas&region=AR", visitor("203.0.113.72"))).status).toBe(200);
    // Signed in, the same address searches on.
    expect((await research("keyword=asado&region=AR", { headers: { ...bearer(user.tokens), "cf-connecting-ip": ip } })).status).toBe(200);
    // A stale bearer token is not taken for a visitor: the client refreshes it.
    expect((await research("keyword=asado&region=AR", { headers: { authorization: "Bearer not-a-token" } })).status).toBe(403);
  });

  it("reads trends with the caller's connected Pinterest profile, and terms with the app's own token", async () => {
    const connected = await signUpUser({ firstName: "Pia" });
    await connectProfile(connected, `kw_${Date.now().toString(36)}`, { settings: null });
    const since = new Date().toISOString();
    expect((await research("keyword=fjord%20cabin&region=SE%2BDK%2BFI%2BNO", signedIn(connected))).status).toBe(200);
    const terms = await pinterestRequests(since, (request) => request.path === "/v5/terms/suggested" && request.query.term === "fjord cabin");
    const trends = await pinterestRequests(
      since,
      (request) => request.path.startsWith("/v5/trends/keywords/SE+DK+FI+NO/") && request.query.include_keywords !== undefined,
    );
    expect(terms).toHaveLength(1);
    expect(trends).toHaveLength(4);
    const trendsTokens = new Set(trends.map((request) => request.headers.authorization));
    expect(trendsTokens.size).toBe(1);
    expect(trendsTokens.has(terms[0].headers.authorization)).toBe(false);
  });
});

describe("use as AI keywords", () => {
  it("puts the chosen terms, one per line, into the active design settings that /generate opens, keeping the rest", async () => {
    const user = await signUpUser({ firstName: "Ada" });
    const before = await read(await app("/api/user/getDesignSettingsProfiles/active", signedIn(user)));
    const answer = await app(
      "/api/keywords/useAsAiKeywords",
      json({ keywords: ["Christmas Nails", "holiday nails", "christmas nails", "nail ideas"] }, bearer(user.tokens)),
    );
    expect(answer.status).toBe(200);
    expect(await read(answer)).toEqual({ profileName: "Default", aiKeywords: "christmas nails\nholiday nails\nnail ideas" });
    const after = await read(await app("/api/user/getDesignSettingsProfiles/active", signedIn(user)));
    expect(after.activeDesignSettings.settings).toEqual({ ...before.activeDesignSettings.settings, aiKeywords: "christmas nails\nholiday nails\nnail ideas" });
  });

  it("refuses an empty or bad list with 400 naming the field, and visitors with 401", async () => {
    const user = await signUpUser({ firstName: "Bo" });
    for (const keywords of [[], "christmas", [""], ["a,b"], Array.from({ length: 51 }, (_, i) => `keyword ${i}`)]) {
      const response = await app("/api/keywords/useAsAiKeywords", json({ keywords }, bearer(user.tokens)));
      expect(response.status, JSON.stringify(keywords)).toBe(400);
      expect((await read(response)).field).toMatch(/^keywords/);
    }
    expect((await app("/api/keywords/useAsAiKeywords", json({ keywords: ["cake"] }))).status).toBe(401);
  });
});
