import { describe, expect, it } from "vitest";
import { applySecurityHeaders } from "../../../workers/http/security-headers.ts";
import { bearer, signUpUser } from "../accounts/accounts-support.ts";
import { app } from "../support.ts";

// Every answer carries the headers a careful site sends; pages get a nonce-based policy.

function expectCareful(response: Response) {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  // Not in development or tests (http): browsers would remember it for the host.
  expect(response.headers.get("strict-transport-security")).toBeNull();
}

describe("security headers", () => {
  it("gives a page a policy whose scripts need this answer's nonce, and the page's scripts carry it", async () => {
    const first = await app("/help");
    const second = await app("/help");
    expectCareful(first);
    const policy = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).not.toContain("'unsafe-eval'");
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  });

  it("sends them with API answers, errors, 404s, redirects and media", async () => {
    const user = await signUpUser();
    expectCareful(await app("/api/user", { headers: bearer(user.tokens) }));
    expectCareful(await app("/api/no-such-route"));
    expectCareful(await app("/api/user")); // 401
    expectCareful(await app("/no-such-page"));
    expectCareful(await app("/api/pinterestAPI/oauthCallback?state=nope", { redirect: "manual" }));
    const media = await app("/media/users/nobody/none.jpeg");
    expectCareful(media);
    expect((await app("/api/user", { headers: bearer(user.tokens) })).headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
  });

  it("adds HSTS in production over https only", () => {
    const production = new Headers({ "content-type": "text/html" });
    applySecurityHeaders(production, { APP_ENV: "production", APP_URL: "https://pinboard.example" }, "abc");
    expect(production.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const local = new Headers();
    applySecurityHeaders(local, { APP_ENV: "production", APP_URL: "http://127.0.0.1:8787" }, null);
    expect(local.get("strict-transport-security")).toBeNull();
  });
});
