import { describe, expect, it } from "vitest";
import { runCampaign, summary, type CampaignResult } from "../fuzz/campaign.ts";
import { csvTarget, feedTarget, jpegTarget, pngTarget, sitemapTarget, woff2Target, woffTarget } from "../fuzz/targets.ts";

/**
 * The untrusted-bytes campaign in the suite (issue 37, decision 078): every parser of bytes from outside that runs
 * in Node, on its production code, fed seeded mutations of small real files (a case costs its damage, not its size:
 * 1 to 5 ms). Each case must end in a clear refusal or a usable result, within a second of CPU, without a trap, and
 * memory must not keep growing. 20,000 cases here and 1,000 of scraped HTML in test/workers/untrusted-bytes.test.ts;
 * `npm run bench:fuzz` runs a million. A failure prints its seed: `node bench/fuzz.ts --replay <parser> <seed>`
 * runs that one case again.
 */

const SEED = 37;

function expectClean(result: CampaignResult) {
  console.log(summary(result));
  expect(result.examples, summary(result)).toEqual([]);
  expect(result.failures).toBe(0);
  // Each parser both uses and refuses some of what it is given: the mutations reach past its first check.
  expect(result.accepted).toBeGreaterThan(0);
  expect(result.refused).toBeGreaterThan(0);
}

describe("untrusted bytes: a seeded mutation campaign per parser", () => {
  it("JPEG pictures (the pixel module, photon for other kinds, the upload check)", async () => {
    expectClean(await runCampaign(jpegTarget(), { cases: 3_000, seed: SEED }));
  }, 600_000);

  it("PNG pictures (photon, the upload check)", async () => {
    expectClean(await runCampaign(pngTarget(), { cases: 3_000, seed: SEED }));
  }, 600_000);

  it("WOFF font uploads, and the render's use of a font that passes", async () => {
    expectClean(await runCampaign(woffTarget(), { cases: 2_500, seed: SEED }));
  }, 600_000);

  it("WOFF2 font uploads, and the render's use of a font that passes", async () => {
    expectClean(await runCampaign(woff2Target(), { cases: 2_500, seed: SEED }));
  }, 600_000);

  it("products CSV files", async () => {
    expectClean(await runCampaign(csvTarget(), { cases: 3_000, seed: SEED }));
  }, 600_000);

  it("RSS, RDF and Atom feeds", async () => {
    expectClean(await runCampaign(await feedTarget(), { cases: 3_000, seed: SEED }));
  }, 600_000);

  it("sitemaps and sitemap indexes", async () => {
    expectClean(await runCampaign(await sitemapTarget(), { cases: 3_000, seed: SEED }));
  }, 600_000);
});
