import { describe, expect, it } from "vitest";
import { stylesFor, withPageStylesOnly } from "../../../workers/http/site-styles-subset.ts";

// Decision 064: a cached page keeps the inline site rules its markup can use, in their order.

const CSS = [
  ":root{--brand: #51c3a6}",
  "*,*:before{box-sizing:border-box}",
  "body{margin:0}",
  ".hero{display:grid}",
  ".hero__title,.menu__item{font-weight:700}",
  ".menu{background:#fff}",
  ".menu__item[data-highlighted]{color:red}",
  ".button:not(.button--ghost){color:#fff}",
  ".site:has(>.cookie-banner){padding-bottom:80px}",
  "@media (min-width: 800px){.hero{gap:24px}.menu{width:300px}}",
  "@media (min-width: 1200px){.menu{width:400px}}",
  "@keyframes spin{to{transform:rotate(360deg)}}",
  ".cookie-banner{position:fixed}",
  ".update-notice__text{margin:0}",
  'a[href^="http"]:after{content:"}"}',
  ".credits-panel{padding:8px}",
].join("");

describe("a page's own site styles", () => {
  it("keeps the rules the markup can use, in their order, and what scripts show on their own", () => {
    const kept = stylesFor(CSS, new Set(["hero", "button", "site"]));
    expect(kept).toBe(
      [
        ":root{--brand: #51c3a6}",
        "*,*:before{box-sizing:border-box}",
        "body{margin:0}",
        ".hero{display:grid}",
        ".button:not(.button--ghost){color:#fff}",
        ".site:has(>.cookie-banner){padding-bottom:80px}",
        "@media (min-width: 800px){.hero{gap:24px}}",
        "@keyframes spin{to{transform:rotate(360deg)}}",
        ".cookie-banner{position:fixed}",
        ".update-notice__text{margin:0}",
        'a[href^="http"]:after{content:"}"}',
      ].join(""),
    );
  });

  it("keeps a rule when any selector of its list can match", () => {
    expect(stylesFor(CSS, new Set(["menu__item"]))).toContain(".hero__title,.menu__item{font-weight:700}");
    expect(stylesFor(CSS, new Set(["menu__item"]))).toContain(".menu__item[data-highlighted]{color:red}");
    expect(stylesFor(CSS, new Set(["menu__item"]))).not.toContain(".menu{");
  });

  it("cuts the page's <style data-site-styles> by the classes of its markup, and leaves a page without one alone", () => {
    const page = `<html><head><style data-site-styles="">${CSS}</style></head><body><div class="site"><section class="hero  x"><a class="menu">Menu</a></section></div></body></html>`;
    const cut = withPageStylesOnly(page);
    expect(cut).toContain(".menu{background:#fff}");
    expect(cut).toContain("@media (min-width: 800px){.hero{gap:24px}.menu{width:300px}}");
    expect(cut).toContain("@media (min-width: 1200px){.menu{width:400px}}");
    expect(cut).not.toContain(".credits-panel");
    expect(cut).not.toContain(".button:not");
    expect(cut.endsWith(`</style></head><body><div class="site"><section class="hero  x"><a class="menu">Menu</a></section></div></body></html>`)).toBe(true);
    const plain = "<html><head><style>.a{b:c}</style></head></html>";
    expect(withPageStylesOnly(plain)).toBe(plain);
  });
});
