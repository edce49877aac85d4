import { describe, expect, it } from "vitest";
import packageJson from "../../../package.json";
import { app } from "../support.ts";

describe("GET /api/health", () => {
  it("answers ok with the app version, and every response carries x-app-version", async () => {
    const response = await app("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: packageJson.version });
    expect(response.headers.get("x-app-version")).toBe(packageJson.version);
  });

  it("answers unknown API paths with a JSON 404, not a page", async () => {
    for (const path of ["/api/no-such-call", "/highMemLimitApi/nothing", "/videoApi/nothing"]) {
      const response = await app(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: "Not found" });
      expect(response.headers.get("x-app-version")).toBe(packageJson.version);
    }
  });
});

describe("pages", () => {
  it("server-renders the home page", async () => {
    const response = await app("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("x-app-version")).toBe(packageJson.version);
    const html = await response.text();
    expect(html).toContain("Pins from every post, scheduled while you sleep");
  });

  it("answers every unmatched path, and /404, with the not-found page and status 404", async () => {
    for (const path of ["/404", "/no/such/page"]) {
      const response = await app(path);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html).toContain("Page Not Found");
      expect(html).toContain("Sorry, the page you tried cannot be found.");
    }
  });
});
