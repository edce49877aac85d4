import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, CLIENT_VERSION } from "../../../app/lib/api-client.ts";
import { renderTemplateImage } from "../../../app/lib/pin-images.ts";

const post = { post: { title: "A pin", template: { title: "T", layers: [] } }, purpose: "download" as const, reference: "pin-download:0123456789abcdef" };
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-app-version": CLIENT_VERSION } });

afterEach(() => vi.unstubAllGlobals());

describe("renderTemplateImage (browser)", () => {
  it("tries once more after a 500 and answers the image", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(answer(500, { error: "Something went wrong on our side. Please try again." }))
      .mockResolvedValueOnce(answer(200, { url: "/media/x.jpeg", fileName: "A-pin-1.jpeg", width: 1000, height: 1500 }));
    vi.stubGlobal("fetch", fetch);
    await expect(renderTemplateImage(post)).resolves.toMatchObject({ url: "/media/x.jpeg" });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[0][0]).toBe("/highMemLimitApi/scraping/renderTemplateImage");
    // The retry names the same request, so the server charges the download once.
    expect(fetch.mock.calls[1][1].body).toBe(fetch.mock.calls[0][1].body);
    expect(JSON.parse(fetch.mock.calls[0][1].body)).toMatchObject({ purpose: "download", reference: "pin-download:0123456789abcdef" });
  });

  it("gives up after the second 500, and does not retry other failures", async () => {
    const twice = vi.fn().mockImplementation(async () => answer(500, { error: "boom" }));
    vi.stubGlobal("fetch", twice);
    await expect(renderTemplateImage(post)).rejects.toMatchObject({ status: 500, message: "boom" });
    expect(twice).toHaveBeenCalledTimes(2);

    const bad = vi.fn().mockImplementation(async () => answer(400, { error: "template is required", field: "post.template" }));
    vi.stubGlobal("fetch", bad);
    const error = await renderTemplateImage(post).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(bad).toHaveBeenCalledTimes(1);
  });
});
