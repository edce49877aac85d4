import { beforeAll, describe, expect, it } from "vitest";
import { pictureHeader } from "../../../workers/render/pictures.ts";
import { proxiedImage } from "../../../workers/services/content/image-proxy.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser();
});

const photo = () => `${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`;
const proxy = (url: string, extra = "") => app(`/api/scraping/imageProxy?url=${encodeURIComponent(url)}${extra}`, { headers: bearer(user.tokens) });

describe("the preview image proxy", () => {
  it("answers a photo downscaled to the width asked, as a JPEG", async () => {
    const original = new Uint8Array(await (await fetch(photo())).arrayBuffer());
    const full = pictureHeader(original)!;
    const response = await proxy(photo(), "&width=300");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toContain("private");
    const small = new Uint8Array(await response.arrayBuffer());
    expect(pictureHeader(small)).toMatchObject({ type: "jpeg", width: 300, height: Math.round((full.height * 300) / full.width) });
    expect(small.length).toBeLessThan(original.length);
  });

  it("passes a picture through unchanged without a width, and never turns a PNG into a JPEG", async () => {
    const original = new Uint8Array(await (await fetch(photo())).arrayBuffer());
    const same = new Uint8Array(await (await proxy(photo())).arrayBuffer());
    expect(same).toEqual(original);
    const png = await proxy(`${testEnv.SANDBOX_URL}/hostile/image.png`, "&width=64");
    expect(png.headers.get("content-type")).toBe("image/png");
  });

  it("refuses what is not a picture, bad input and strangers", async () => {
    const page = await proxy(`${testEnv.SANDBOX_URL}/blog-demo/`);
    expect(page.status).toBe(415);
    expect(await read(page)).toMatchObject({ field: "url" });
    const pdf = await proxy(`${testEnv.SANDBOX_URL}/hostile/document.pdf`);
    expect(pdf.status).toBe(415);
    const badWidth = await proxy(photo(), "&width=5000");
    expect(badWidth.status).toBe(400);
    expect(await read(badWidth)).toMatchObject({ field: "width" });
    const notWeb = await proxy("file:///etc/passwd");
    expect(notWeb.status).toBe(400);
    expect((await app(`/api/scraping/imageProxy?url=${encodeURIComponent(photo())}`)).status).toBe(401);
  });

  it("refuses private addresses, the sandbox's own once it is not a trusted origin", async () => {
    await expect(proxiedImage(testEnv, "http://169.254.169.254/latest/meta-data")).rejects.toMatchObject({ status: 400, field: "url" });
    await expect(proxiedImage({ ...testEnv, TRUSTED_FETCH_ORIGINS: "" }, photo())).rejects.toMatchObject({ status: 400, field: "url" });
  });
});
