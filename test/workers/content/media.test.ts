import { describe, expect, it } from "vitest";
import { mediaUrl, putMedia } from "../../../workers/media/store.ts";
import { app, testEnv } from "../support.ts";

describe("media in R2", () => {
  it("round-trips an object through the bucket and serves it with long cache headers", async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 31) % 256);
    await putMedia(testEnv, "pins/test/round trip.jpeg", bytes, "image/jpeg");

    const stored = await testEnv.MEDIA.get("pins/test/round trip.jpeg");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);

    const url = new URL(mediaUrl("http://app.test", "pins/test/round trip.jpeg"));
    expect(url.pathname).toBe("/media/pins/test/round%20trip.jpeg");
    const response = await app(url.pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);

    const again = await app(url.pathname, { headers: { "if-none-match": response.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("answers 404 for a key that does not exist", async () => {
    const response = await app("/media/pins/none.jpeg");
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});
