import { describe, expect, it } from "vitest";
import { app, read } from "../support.ts";

describe("pricing parity calls", () => {
  it("answers a country's adjustment without sign-in", async () => {
    const response = await app("/api/pricingParity/in");
    expect(response.status).toBe(200);
    expect(await read(response)).toEqual({ countryCode: "IN", percentageAdjustment: 50 });
  });

  it("refuses a code that is not two letters, naming the field", async () => {
    const response = await app("/api/pricingParity/india");
    expect(response.status).toBe(400);
    expect(await read(response)).toMatchObject({ field: "countryCode" });
  });

  it("uses the country the edge saw when none is given", async () => {
    const response = await app("/api/pricingParity", { cf: { country: "BR" } } as RequestInit);
    expect(await read(response)).toEqual({ countryCode: "BR", percentageAdjustment: 40 });
  });
});
