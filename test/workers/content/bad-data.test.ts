import { PhotonImage } from "@cf-wasm/photon/workerd";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { userMedia } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName } from "../pinterest/scheduling-support.ts";
import { app, read, testEnv } from "../support.ts";

// Issue 12, point 10: pictures are read for real before they are kept, and user text loses the
// characters that hide or disguise it (NUL and other controls, bidirectional overrides).

/** The user's media library rows, in their ledger (decision 084). */
const mediaOf = (user: TestUser) => ledgerOf(testEnv, user.userId).db.select().from(userMedia).where(eq(userMedia.userId, user.userId));
const post = (user: TestUser, path: string, body: unknown) => app(path, json(body, bearer(user.tokens)));

function picture(width: number, height: number, format: "png" | "jpeg"): Uint8Array {
  const pixels = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 13) % 256));
  const image = new PhotonImage(pixels, width, height);
  try {
    return format === "png" ? image.get_bytes() : image.get_bytes_jpeg(80);
  } finally {
    image.free();
  }
}

function upload(user: TestUser, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set("mediaType", "image");
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], name, { type: "application/octet-stream" }));
  return app("/api/user/media/uploadMedia", { method: "POST", headers: bearer(user.tokens), body: form });
}

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser({ firstName: "Tom" });
});

describe("pictures", () => {
  it.each(["png", "jpeg"] as const)("refuses a truncated %s and stores nothing", async (format) => {
    const whole = picture(64, 48, format);
    const before = (await mediaOf(user)).length;
    for (const cut of [whole.slice(0, 40), whole.slice(0, Math.floor(whole.length / 2)), whole.slice(0, whole.length - 12)]) {
      const response = await upload(user, cut, `cut.${format}`);
      expect(response.status).toBe(400);
      expect(await read(response)).toEqual({ error: "This image is incomplete (the file was cut short). Please upload it again.", field: "file" });
    }
    expect(await mediaOf(user)).toHaveLength(before);
    const good = await upload(user, whole, `good.${format}`);
    expect(good.status).toBe(201);
    expect((await read(good)).media).toMatchObject({ width: 64, height: 48 });
  });

  it("refuses a header that claims a size the picture does not have (4294967295)", async () => {
    const png = picture(8, 8, "png");
    png.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 16);
    const response = await upload(user, png, "liar.png");
    expect(response.status).toBe(400);
    expect((await read(response)).field).toBe("file");
    const rows = await mediaOf(user);
    expect(rows.every((row) => row.width! <= 20_000 && row.height! <= 20_000)).toBe(true);
  });
});

describe("user text", () => {
  const sneaky = "Spring\u0000 sale \u202Egpj.exe\u202C\u2066!\u2069";
  const cleaned = "Spring sale gpj.exe!";

  it("strips NUL, other controls and bidirectional overrides from names and titles", async () => {
    const category = await read(await post(user, "/api/templates/categories/addTemplateCategory", { name: sneaky }));
    expect(category.category?.name ?? category.name).toBe(cleaned);

    const draft = await read(await post(user, "/api/user/drafts/createDraft", { name: sneaky, date: "24/11/2026", posts: [] }));
    expect(draft.draft.name).toBe(cleaned);

    const profile = await read(await post(user, "/api/user/saveDesignSettings", { designSettings: {}, newProfileName: sneaky }));
    expect(profile.newProfileName).toBe(cleaned);

    const renamed = await read(await post(user, "/api/user", { updates: { firstName: `Ann\u202Ea\u0007` } }));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test checks no control character is left.
    expect(JSON.stringify(renamed)).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
    const me = await read(await app("/api/user", { headers: bearer(user.tokens) }));
    expect(me.credentials.firstName).toBe("Anna");
  });

  it("keeps line breaks in a pin's description but strips the rest", async () => {
    await grantCredits(user, 5);
    const profile = await connectProfile(user, pinterestName("text"));
    const response = await post(user, "/api/scheduling/schedulePin", imagePin(profile, { title: sneaky, description: "Line one\nLine two\u202E\u0000" }));
    expect(response.status).toBe(201);
    const { scheduledPin } = await read(response);
    expect(scheduledPin.title).toBe(cleaned);
    expect(scheduledPin.description).toBe("Line one\nLine two");
  });
});
