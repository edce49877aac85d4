import { describe, expect, it } from "vitest";
import { isLocalDemoHost, normalizeSourceUrl } from "../../../workers/scrape/url.ts";

const ok = (input: string, localHosts?: string[]) => {
  const check = normalizeSourceUrl(input, { localHosts });
  if (!check.ok) throw new Error(`${input} refused: ${check.error}`);
  return check.url;
};
const refused = (input: string) => {
  const check = normalizeSourceUrl(input);
  if (check.ok) throw new Error(`${input} accepted as ${check.url}`);
  return check.error;
};

describe("source URL rule (spec section 5)", () => {
  it("normalises real hosts to https", () => {
    expect(ok("http://example.com/post")).toBe("https://example.com/post");
    expect(ok("example.com/my-post?ref=pin")).toBe("https://example.com/my-post?ref=pin");
    expect(ok("  https://Blog.Example.co.uk/a/b/  ")).toBe("https://blog.example.co.uk/a/b/");
    expect(ok("http://example.com:80/x")).toBe("https://example.com/x");
    expect(ok("www.example.com")).toBe("https://www.example.com/");
    expect(ok("example.com:8080/path")).toBe("https://example.com:8080/path");
    expect(ok("https://example.com/post#comments")).toBe("https://example.com/post");
  });

  it("refuses a host without a dot, naming the field", () => {
    expect(refused("https://intranet/post")).toMatch(/^url must be a web address whose host contains a dot/);
    expect(refused("myblog")).toMatch(/host contains a dot/);
    expect(normalizeSourceUrl("http://server/x", { field: "urls" })).toEqual({ ok: false, error: expect.stringMatching(/^urls /) });
  });

  it("refuses other schemes, spaces, credentials and nonsense", () => {
    expect(refused("ftp://example.com/file")).toMatch(/http:\/\/ or https:\/\//);
    expect(refused("javascript:alert(1)")).toMatch(/http:\/\/ or https:\/\//);
    expect(refused("mailto:someone@example.com")).toMatch(/http:\/\/ or https:\/\//);
    expect(refused("https://exa mple.com")).toMatch(/without spaces/);
    expect(refused("https://user:secret@example.com/")).toMatch(/user name or password/);
    expect(refused("http://")).toMatch(/not a valid web address/);
    expect(refused("https://example..com")).toMatch(/contains a dot/);
    expect(refused("   ")).toBe("url is required");
  });

  it("keeps the scheme of local demo hosts", () => {
    expect(ok("http://127.0.0.1:8788/blog-demo/")).toBe("http://127.0.0.1:8788/blog-demo/");
    expect(ok("127.0.0.1:8788/blog-demo/")).toBe("http://127.0.0.1:8788/blog-demo/");
    expect(ok("http://localhost:8788/blog-demo/")).toBe("http://localhost:8788/blog-demo/");
    expect(ok("http://blog.localhost/x")).toBe("http://blog.localhost/x");
    expect(ok("https://localhost/x")).toBe("https://localhost/x");
    expect(ok("http://sandbox:8788/blog-demo/", ["sandbox"])).toBe("http://sandbox:8788/blog-demo/");
    expect(isLocalDemoHost("[::1]")).toBe(true);
    expect(isLocalDemoHost("example.com")).toBe(false);
  });
});
