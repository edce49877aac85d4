import { describe, expect, it } from "vitest";
import { constantTimeEqual, hashPassword, needsRehash, PBKDF2_ITERATIONS, verifyPassword } from "../../../workers/auth/password-hash.ts";
import { handleBase, handleCandidates, newReferralCode } from "../../../workers/domain/handles.ts";
import { applyOnboardingChanges, ONBOARDING_STEPS, onboardingChecklist } from "../../../workers/domain/onboarding.ts";
import { commonPasswordCount, isCommonPassword, passwordProblem } from "../../../workers/domain/password-policy.ts";

describe("password policy", () => {
  it("rejects at least 1,000 common passwords, whatever their case", () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(1000);
    for (const common of ["password", "PASSWORD1", "12345678", "qwertyuiop", "iloveyou", "sunshine1"]) {
      expect(isCommonPassword(common), common).toBe(true);
    }
    expect(isCommonPassword("Violet-Harbour-42!")).toBe(false);
  });

  it("requires 8 to 128 characters, and not the e-mail address", () => {
    expect(passwordProblem("Ab3$efg")).toBe("Password must be at least 8 characters.");
    expect(passwordProblem("a".repeat(129))).toBe("Password must be at most 128 characters.");
    expect(passwordProblem("maya@example.com", "Maya@example.com")).toBe("Your password must not be your e-mail address.");
    expect(passwordProblem("Violet-Harbour-42!", "maya@example.com")).toBeNull();
  });
});

describe("password hashing", () => {
  it("stores PBKDF2-SHA256 with 100,000 iterations and a 16-byte salt in a versioned format", async () => {
    const stored = await hashPassword("Violet-Harbour-42!");
    const [scheme, iterations, salt, hash] = stored.split("$");
    expect(scheme).toBe("pbkdf2-sha256");
    expect(Number(iterations)).toBe(PBKDF2_ITERATIONS);
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    expect(Buffer.from(salt, "base64url")).toHaveLength(16);
    expect(Buffer.from(hash, "base64url")).toHaveLength(32);
    expect(await verifyPassword("Violet-Harbour-42!", stored)).toBe(true);
    expect(await verifyPassword("violet-harbour-42!", stored)).toBe(false);
    // The same password never hashes the same way twice.
    expect(await hashPassword("Violet-Harbour-42!")).not.toBe(stored);
  });

  it("verifies hashes made with weaker parameters and asks for a rehash; refuses garbage", async () => {
    const old = await hashPassword("Violet-Harbour-42!", 10_000);
    expect(await verifyPassword("Violet-Harbour-42!", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("x-y-z-1-2-3"))).toBe(false);
    for (const garbage of ["", "plain", "md5$1$aa$bb", "pbkdf2-sha256$99999999$aa$bb", "pbkdf2-sha256$1000$!!$??"]) {
      expect(await verifyPassword("anything", garbage)).toBe(false);
    }
  });

  it("compares bytes without short-cutting on the first difference", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
  });
});

describe("handles and referral codes", () => {
  it("makes a handle from the name, falling back to the e-mail", () => {
    expect(handleBase("Maya", "Lindqvist", "m@x.co")).toBe("mayalindqvist");
    expect(handleBase("Zoë", "Ångström", "z@x.co")).toBe("zoeangstrom");
    expect(handleBase("李", "", "li.wei@example.com")).toBe("liwei");
    expect(handleCandidates("maya", () => 0.5)).toEqual(["maya", "maya5500", "maya5500", "maya5500", "maya5500", "maya5500"]);
  });

  it("makes 8-character referral codes without look-alike characters", () => {
    const code = newReferralCode(new Uint8Array([0, 1, 2, 3, 250, 251, 252, 255]));
    expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);
  });
});

describe("onboarding checklist", () => {
  it("has 8 steps, each with isChecked, label, name and link", () => {
    expect(ONBOARDING_STEPS).toHaveLength(8);
    const list = onboardingChecklist(["generatePins"], false);
    expect(list.filter((step) => step.isChecked).map((step) => step.name)).toEqual(["generatePins"]);
    // "Verify your e-mail" follows the account, whatever is stored.
    expect(onboardingChecklist(["verifyEmail"], false)[0].isChecked).toBe(false);
    expect(onboardingChecklist([], true)[0].isChecked).toBe(true);
    expect(Object.keys(list[0]).sort()).toEqual(["isChecked", "label", "link", "name"]);
  });

  it("applies changes in checklist order and ignores unknown steps", () => {
    expect(
      applyOnboardingChanges(
        ["inviteFriend"],
        [
          { name: "generatePins", isChecked: true },
          { name: "bogus", isChecked: true },
        ],
      ),
    ).toEqual(["generatePins", "inviteFriend"]);
    expect(applyOnboardingChanges(["generatePins"], [{ name: "generatePins", isChecked: false }])).toEqual([]);
    // Steps that follow the account cannot be ticked by hand.
    expect(applyOnboardingChanges([], [{ name: "verifyEmail", isChecked: true }])).toEqual([]);
  });
});
