import { describe, it } from "vitest";
import { runCampaign, type Target } from "../../fuzz/campaign.ts";
import { expectClean } from "../../fuzz/expect-clean.ts";
import { csvTarget, feedTarget, jpegTarget, pngTarget, sitemapTarget } from "../../fuzz/targets.ts";

/**
 * The untrusted-bytes campaign in the suite (issue 37, decision 078): every parser of bytes from outside that runs
 * in Node, on its production code, fed seeded mutations of small real files (a case costs its damage, not its size:
 * 1 to 5 ms). Each case must end in a clear refusal or a usable result, within a second of CPU, without a trap, and
 * memory must not keep growing. 15,000 cases here; font uploads (5,000) and scraped HTML (1,000) run in workerd,
 * in test/workers/core/untrusted-bytes.test.ts: 21,000 in the suite. `npm run bench:fuzz` runs a million. A failure prints its seed: `node bench/fuzz.ts --replay <parser> <seed>`
 * runs that one case again.
 */

const SEED = 37;

/** Each parser, its production code in words, and its cases: 15,000 here. */
const CAMPAIGNS: [string, () => Target | Promise<Target>, number][] = [
  ["JPEG pictures (the pixel module, photon for other kinds, the upload check)", jpegTarget, 3_000],
  ["PNG pictures (photon, the upload check)", pngTarget, 3_000],
  ["products CSV files", csvTarget, 3_000],
  ["RSS, RDF and Atom feeds", feedTarget, 3_000],
  ["sitemaps and sitemap indexes", sitemapTarget, 3_000],
];

describe("untrusted bytes: a seeded mutation campaign per parser", () => {
  for (const [title, target, cases] of CAMPAIGNS) {
    it(title, async () => {
      expectClean(await runCampaign(await target(), { cases, seed: SEED }));
    }, 600_000);
  }
});
