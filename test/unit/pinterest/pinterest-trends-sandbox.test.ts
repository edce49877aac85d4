import { describe, expect, it } from "vitest";
import { useSandbox } from "../../support/sandbox.ts";

// The Pinterest stand-in's terms and trends (sandbox/providers/pinterest/trends.ts and
// trends-data.ts): deterministic, seasonal, regional data, its filters and validation,
// per-token rate-limit buckets, and the sandbox controls that make a keyword rise.
const sandbox = useSandbox();
const BASIC = `Basic ${Buffer.from("1500000000000001:local-secret").toString("base64")}`;

interface Trend {
  keyword: string;
  pct_growth_wow: number;
  pct_growth_mom: number;
  pct_growth_yoy: number;
  time_series: Record<string, number>;
  demographics?: { gender_distribution: Record<string, number>; age_distribution: Record<string, number> };
}

async function clientToken(scope = "ads:read,user_accounts:read") {
  const response = await fetch(`${sandbox.url}/pinterest/v5/oauth/token`, {
    method: "POST",
    headers: { authorization: BASIC, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function api(token: string, path: string) {
  return fetch(`${sandbox.url}/pinterest/v5${path}`, { headers: { authorization: `Bearer ${token}` } });
}

async function trends(token: string, region: string, type: string, query = ""): Promise<Trend[]> {
  const response = await api(token, `/trends/keywords/${region}/top/${type}${query ? `?${query}` : ""}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { trends: Trend[] }).trends;
}

async function control(path: string, json: unknown) {
  const response = await fetch(`${sandbox.url}/__sandbox/pinterest${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response.json();
}

/** The month (1-12) of the week with the highest value in a time series. */
function peakMonth(trend: Trend) {
  const [date] = Object.entries(trend.time_series).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return Number(date.slice(5, 7));
}

describe("terms", () => {
  it("suggests popular searches that begin with the term, and relates terms by words, interest and modifiers", async () => {
    const token = await clientToken();
    const suggested = (await (await api(token, "/terms/suggested?term=Summer&limit=6")).json()) as string[];
    expect(suggested).toHaveLength(6);
    expect(suggested.every((term) => term.startsWith("summer "))).toBe(true);
    expect(suggested.slice(0, 2)).toEqual(["summer outfits", "summer nails"]);
    expect((await (await api(token, "/terms/suggested?term=summer")).json()) as string[]).toHaveLength(4);
    // Any term has suggestions, not only the stand-in's own vocabulary.
    const unknown = (await (await api(token, "/terms/suggested?term=lemon%20drizzle%20cake&limit=3")).json()) as string[];
    expect(unknown).toHaveLength(3);
    expect(unknown.every((term) => term.startsWith("lemon drizzle cake "))).toBe(true);

    const related = (await (await api(token, "/terms/related?terms=wedding%20nails&terms=workout")).json()) as {
      id: string;
      related_term_count: number;
      related_terms_list: Array<{ term: string; related_terms: string[] }>;
    };
    expect(related.id).toBe("wedding nails");
    expect(related.related_terms_list.map((entry) => entry.term)).toEqual(["wedding nails", "workout"]);
    expect(related.related_terms_list[0].related_terms).toEqual(expect.arrayContaining(["wedding dresses", "summer nails"]));
    expect(related.related_term_count).toBe(related.related_terms_list.reduce((sum, entry) => sum + entry.related_terms.length, 0));
    // Comma-separated works as well as repeated.
    const comma = (await (await api(token, "/terms/related?terms=wedding%20nails,workout")).json()) as typeof related;
    expect(comma).toEqual(related);
  });

  it("refuses missing or bad parameters with Pinterest's 400", async () => {
    const token = await clientToken();
    for (const query of ["", "?term=", "?term=a&limit=0", "?term=a&limit=11", "?term=a&limit=two"]) {
      const response = await api(token, `/terms/suggested${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/^Invalid terms suggested parameters/);
    }
    expect((await api(token, "/terms/related")).status).toBe(400);
    expect((await api(token, "/terms/related?terms=a,,b")).status).toBe(400);
  });
});

describe("trends", () => {
  it("answers the same trends for the same question on the same day", async () => {
    const token = await clientToken();
    const first = await trends(token, "US", "monthly", "include_keywords=nails");
    expect(first.length).toBeGreaterThan(5);
    expect(await trends(token, "US", "monthly", "include_keywords=nails")).toEqual(first);
  });

  it("follows the seasons: Christmas rises in December everywhere, summer and back to school follow the hemisphere", async () => {
    const token = await clientToken();
    await control("/trends/today", { date: "2026-12-10" });
    const [christmas] = await trends(token, "US", "monthly", "include_keywords=christmas%20decor&limit=1");
    expect(christmas.keyword).toBe("christmas decor");
    expect(christmas.pct_growth_mom).toBeGreaterThan(50);
    expect(peakMonth(christmas)).toBe(12);
    const seasonal = (await trends(token, "US", "seasonal", "limit=10")).map((trend) => trend.keyword);
    expect(seasonal.filter((keyword) => /christmas|holiday|stocking|gingerbread|advent|elf/.test(keyword)).length).toBeGreaterThan(5);

    await control("/trends/today", { date: "2026-11-01" });
    const summerUs = (await trends(token, "US", "monthly", "include_keywords=summer%20outfits&limit=1"))[0];
    const summerAu = (await trends(token, "AU+NZ", "monthly", "include_keywords=summer%20outfits&limit=1"))[0];
    expect([6, 7, 8]).toContain(peakMonth(summerUs));
    expect([12, 1, 2]).toContain(peakMonth(summerAu));
    const schoolUs = (await trends(token, "US", "monthly", "include_keywords=back%20to%20school%20outfits&limit=1"))[0];
    const schoolAu = (await trends(token, "AU+NZ", "monthly", "include_keywords=back%20to%20school%20outfits&limit=1"))[0];
    expect(peakMonth(schoolUs)).toBe(8);
    expect([1, 2]).toContain(peakMonth(schoolAu));
  });

  it("ranks growing terms up and leaves falling ones out; falling terms lose year over year", async () => {
    const token = await clientToken();
    await control("/trends/today", { date: "2026-06-15" });
    const growing = await trends(token, "US", "growing");
    const keywords = growing.map((trend) => trend.keyword);
    expect(keywords).toEqual(expect.arrayContaining(["cottage cheese recipes", "pilates at home"]));
    expect(keywords).not.toContain("barbiecore");
    expect(growing.every((trend) => trend.pct_growth_mom >= 0)).toBe(true);
    const falling = (await trends(token, "US", "yearly", "include_keywords=barbiecore")).find((trend) => trend.keyword === "barbiecore")!;
    expect(falling.pct_growth_yoy).toBeLessThan(-10);
  });

  it("filters by interests, audience and keywords, limits, normalizes as a group, and adds demographics and predictions", async () => {
    const token = await clientToken();
    const beauty = await trends(token, "GB+IE", "yearly", "interests=beauty&limit=5");
    expect(beauty).toHaveLength(5);
    expect(beauty.map((trend) => trend.keyword)).toContain("nail ideas");
    const mens = await trends(token, "US", "yearly", "interests=mens_fashion,beauty&genders=male&limit=3");
    expect(mens[0].keyword).toMatch(/^mens /);

    const independent = await trends(token, "US", "monthly", "include_keywords=wedding&limit=6");
    expect(independent.every((trend) => trend.keyword.includes("wedding"))).toBe(true);
    expect(independent.every((trend) => Math.max(...Object.values(trend.time_series)) === 100)).toBe(true);
    const group = await trends(token, "US", "monthly", "include_keywords=wedding&limit=6&normalize_against_group=true");
    expect(group.filter((trend) => Math.max(...Object.values(trend.time_series)) === 100)).toHaveLength(1);

    const [detailed] = await trends(token, "US", "monthly", "include_keywords=nail%20ideas&limit=1&include_demographics=true&include_prediction=true");
    expect(detailed.demographics!.gender_distribution.female).toBeGreaterThan(0.7);
    expect(Object.keys(detailed.demographics!.age_distribution)).toHaveLength(7);
    expect(Object.keys((detailed as unknown as { predicted_time_series: object }).predicted_time_series)).toHaveLength(13);
  });

  it("refuses bad regions, trend types, filters and limits with Pinterest's 400", async () => {
    const token = await clientToken();
    for (const path of [
      "/trends/keywords/UK/top/monthly",
      "/trends/keywords/US/top/weekly",
      "/trends/keywords/US/top/monthly?interests=food",
      "/trends/keywords/US/top/monthly?genders=other",
      "/trends/keywords/US/top/monthly?ages=30-40",
      "/trends/keywords/US/top/monthly?limit=51",
      "/trends/keywords/US/top/monthly?include_keywords=",
      `/trends/keywords/US/top/monthly?include_keywords=${Array.from({ length: 51 }, (_, i) => `k${i}`).join(",")}`,
      "/trends/keywords/US/top/monthly?normalize_against_group=yes",
    ]) {
      const response = await api(token, path);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/^Invalid trending keywords request parameters/);
    }
  });
});

describe("rate limits and faults", () => {
  it("gives each token its own bucket per category, with Pinterest's headers and a 429 that says when to retry", async () => {
    await control("/trends/rate-limit", { category: "trends_read", perMinute: 3 });
    const first = await clientToken();
    const second = await clientToken();
    for (let i = 0; i < 3; i += 1) {
      const response = await api(first, "/trends/keywords/US/top/monthly?limit=1");
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe("3");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
    }
    const limited = await api(first, "/trends/keywords/US/top/monthly?limit=1");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 8 });
    expect(limited.headers.get("retry-after")).toBe("20");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await api(second, "/trends/keywords/US/top/monthly?limit=1")).status).toBe(200);
    expect((await api(first, "/terms/suggested?term=cake")).status).toBe(200);
  });

  it("fails on demand through the sandbox's fault switch", async () => {
    const token = await clientToken();
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "pinterest", path: "/v5/terms/suggested", status: 429, headers: { "retry-after": "7" }, times: 1 }),
    });
    const faulted = await api(token, "/terms/suggested?term=cake");
    expect(faulted.status).toBe(429);
    expect(faulted.headers.get("retry-after")).toBe("7");
    expect((await api(token, "/terms/suggested?term=cake")).status).toBe(200);
  });

  it("gives client tokens only for known scopes, and only with a scope", async () => {
    const token = (body: Record<string, string>) =>
      fetch(`${sandbox.url}/pinterest/v5/oauth/token`, {
        method: "POST",
        headers: { authorization: BASIC, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      });
    expect((await token({ grant_type: "client_credentials" })).status).toBe(400);
    expect((await token({ grant_type: "client_credentials", scope: "ads:read,everything" })).status).toBe(400);
    const answer = (await (await token({ grant_type: "client_credentials", scope: "user_accounts:read" })).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ token_type: "bearer", response_type: "client_credentials", scope: "user_accounts:read" });
    expect(answer.refresh_token).toBeUndefined();
  });
});

describe("making a trend rise (sandbox control)", () => {
  it("bumps a keyword's latest weeks in a region, so its growth jumps and it joins the growing trends there only", async () => {
    const token = await clientToken();
    await control("/trends/today", { date: "2026-03-10" });
    const [before] = await trends(token, "CA", "monthly", "include_keywords=banana%20bread&limit=1");
    expect(before.keyword).toBe("banana bread");
    expect((await trends(token, "CA", "growing")).map((trend) => trend.keyword)).not.toContain("banana bread");

    await control("/trends/rise", { keyword: "Banana Bread", region: "CA", factor: 4, weeks: 2 });
    const [after] = await trends(token, "CA", "monthly", "include_keywords=banana%20bread&limit=1");
    expect(after.pct_growth_wow).toBeGreaterThan(before.pct_growth_wow + 50);
    expect(after.pct_growth_mom).toBeGreaterThan(before.pct_growth_mom + 50);
    expect(Object.values(after.time_series).at(-1)).toBe(100);
    expect((await trends(token, "CA", "growing")).map((trend) => trend.keyword)).toContain("banana bread");
    expect((await trends(token, "US", "growing")).map((trend) => trend.keyword)).not.toContain("banana bread");

    // A term the stand-in never heard of becomes a trend of the interest it is given.
    await control("/trends/rise", { keyword: "mushroom lamp", factor: 20, interest: "home_decor" });
    const decor = await trends(token, "FR", "growing", "interests=home_decor");
    expect(decor.map((trend) => trend.keyword)).toContain("mushroom lamp");

    await control("/trends/rise", { keyword: "banana bread", region: "CA", factor: 1 });
    expect((await trends(token, "CA", "monthly", "include_keywords=banana%20bread&limit=1"))[0]).toEqual(before);
  });

  it("refuses a bad rise", async () => {
    for (const body of [
      {},
      { keyword: "" },
      { keyword: "x", region: "UK" },
      { keyword: "x", factor: 0 },
      { keyword: "x", weeks: 60 },
      { keyword: "x", interest: "food" },
    ]) {
      const response = await fetch(`${sandbox.url}/__sandbox/pinterest/trends/rise`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});
