import { describe, expect, it } from "vitest";
import { scriptUrlsOf } from "../../../scripts/js-budget.ts";

describe("which scripts a page's HTML loads", () => {
  it("finds <script src>, modulepreload links and the inline module's imports, once each, resolved against the page", () => {
    const html = `<!DOCTYPE html><html><head>
      <link rel="stylesheet" href="/assets/app.css"/>
      <link rel="modulepreload" href="/assets/entry.client-A.js"/>
      <link rel=modulepreload href='/assets/shell-B.js'>
      <link rel="preload" as="image" href="/hero.jpg"/>
      <script src="https://cdn.example/analytics.js" async></script>
      </head><body>
      <script nonce="n">window.__remixContext = {"a":"import \\"/not-a-module.js\\""};</script>
      <script nonce="n" type="module" async="">import "/assets/manifest-C.js"; import * as route0 from "/assets/root-D.js"; import("/assets/entry.client-A.js");</script>
      <script src="relative.js"></script>
      </body></html>`;
    expect(scriptUrlsOf(html, "http://127.0.0.1:8787/pricing")).toEqual([
      "http://127.0.0.1:8787/assets/entry.client-A.js",
      "http://127.0.0.1:8787/assets/shell-B.js",
      "https://cdn.example/analytics.js",
      "http://127.0.0.1:8787/relative.js",
      "http://127.0.0.1:8787/assets/manifest-C.js",
      "http://127.0.0.1:8787/assets/root-D.js",
    ]);
  });
});
