import { describe, expect, it } from "vitest";
import { seal, unseal } from "../../../workers/auth/sealed.ts";

const SECRET = "test-auth-secret-0123456789abcdefghijklmnop";

describe("secrets sealed at rest", () => {
  it("opens what it sealed, and the stored text does not contain the secret", async () => {
    const sealed = await seal(SECRET, "pinterest-token", "pina_ACCESS-TOKEN-123", "profile-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("ACCESS-TOKEN");
    expect(await unseal(SECRET, "pinterest-token", sealed, "profile-1")).toBe("pina_ACCESS-TOKEN-123");
  });

  it("seals the same text differently every time", async () => {
    expect(await seal(SECRET, "p", "same", "row")).not.toBe(await seal(SECRET, "p", "same", "row"));
  });

  it("refuses a value moved to another row, another purpose, another key or tampered with", async () => {
    const sealed = await seal(SECRET, "pinterest-token", "secret-value", "profile-1");
    expect(await unseal(SECRET, "pinterest-token", sealed, "profile-2")).toBeNull();
    expect(await unseal(SECRET, "other-purpose", sealed, "profile-1")).toBeNull();
    expect(await unseal(`${SECRET}-rotated`, "pinterest-token", sealed, "profile-1")).toBeNull();
    const [v, iv, data] = sealed.split(".");
    const flipped = `${v}.${iv}.${data.slice(0, -2)}${data.at(-2) === "A" ? "B" : "A"}${data.at(-1)}`;
    expect(await unseal(SECRET, "pinterest-token", flipped, "profile-1")).toBeNull();
    expect(await unseal(SECRET, "pinterest-token", "garbage", "profile-1")).toBeNull();
  });
});
