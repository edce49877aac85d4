import { describe, expect, it } from "vitest";
import { describePageJs, measurePageJs, PAGE_JS_BUDGET_BYTES } from "../../../scripts/js-budget.ts";
import { appUrl } from "../support/browser.ts";

// Issue 17's JavaScript budget, against the built app as `npm start` runs it: everything the HTML of
// / and /pricing makes the browser load up front (<script src>, modulepreload, the inline module's
// imports), each file gzipped, must stay under 100 KB per page. `npm run bench:pages` prints the
// same figures.

describe("the JavaScript a first visit ships", () => {
  for (const path of ["/", "/pricing"]) {
    it(`stays under 100 KB gzipped on ${path}`, async () => {
      const measured = await measurePageJs(appUrl(), path);
      // The page loads its framework and its own route module at least: a measure that found nothing measured nothing.
      expect(
        measured.files.some((file) => /\/assets\/entry\.client-/.test(file.url)),
        describePageJs(measured),
      ).toBe(true);
      expect(measured.files.length, describePageJs(measured)).toBeGreaterThan(2);
      expect(measured.gzippedBytes, describePageJs(measured)).toBeLessThan(PAGE_JS_BUDGET_BYTES);
    });
  }
});
