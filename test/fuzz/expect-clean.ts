import { expect } from "vitest";
import { summary, type CampaignResult } from "./campaign.ts";

/**
 * What the suite asks of a campaign (decision 078), in Node and in workerd alike: no failure, and the parser both
 * used and refused some of what it was given (the mutations reach past its first check). Prints the summary.
 */
export function expectClean(result: CampaignResult) {
  console.log(summary(result));
  expect(result.examples, summary(result)).toEqual([]);
  expect(result.failures).toBe(0);
  expect(result.accepted).toBeGreaterThan(0);
  expect(result.refused).toBeGreaterThan(0);
}
