import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../app/lib/api-client.ts";
import { renderTemplateImage } from "../../app/lib/pin-images.ts";

const post = { title: "A pin", template: { title: "T", layers: [] } };
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-app-version": "2.2.5" } });

afterEach(() => vi.unstubAllGlobals());

describe("renderTemplateImage (browser)", () => {
  it("tries once more after a 500 and answers the image", async () => {
    const fetch = vi.fn()
      .mockResolvedValueOnce(answer(500, { error: "Something went wrong on our side. Please try again." }))
      .mockResolvedValueOnce(answer(200, { url: "/media/x.jpeg", fileName: "A-pin-1.jpeg", width: 1000, height: 1500 }));
    vi.stubGlobal("fetch", fetch);
    await expect(renderTemplateImage(post)).resolves.toMatchObject({ url: "/media/x.jpeg" });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[0][0]).toBe("/highMemLimitApi/scraping/renderTemplateImage");
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
