import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { grantCredits, post } from "./scheduling-support.ts";
import { app, read } from "../support.ts";

// Issue 20, public pins: the owner makes a pin (a pin history entry) public; its page shows the
// image, title, description and link with Open Graph tags, and nothing private; private again is 404.

const design = {
  title: "Plain title card",
  background: "#f4efe6",
  layers: [
    {
      type: "text",
      id: "title",
      name: "Title",
      content: "title",
      x: 100,
      y: 540,
      width: 800,
      height: 420,
      rotation: 0,
      opacity: 1,
      hidden: false,
      style: { fontSize: "auto", align: "center", color: "auto" },
    },
  ],
  categories: [],
};

async function downloadedPin(user: TestUser, title: string): Promise<{ id: string; imageUrl: string }> {
  const rendered = await post(user, "/highMemLimitApi/scraping/renderTemplateImage", {
    post: { template: design, title, description: "Three folds for a dinner table.", url: "https://linen.example/napkins" },
  });
  expect(rendered.status).toBe(200);
  const { pinHistory } = await read(await post(user, "/api/user/getPinHistory", { startAtDate: null }));
  const entry = pinHistory.find((item: { title: string }) => item.title === title);
  return { id: entry.id, imageUrl: entry.imageUrl };
}

const setPublic = (user: TestUser, id: string, isPublic: boolean) => post(user, "/api/user/pinHistory/setPublic", { id, isPublic });

describe("public pins", () => {
  let owner: TestUser;
  let other: TestUser;
  let pin: { id: string; imageUrl: string };
  beforeAll(async () => {
    owner = await signUpUser({ firstName: "Pia" });
    other = await signUpUser({ firstName: "Otto" });
    await grantCredits(owner, 5);
    pin = await downloadedPin(owner, "Linen napkins, three folds");
  });

  it("is private until its owner makes it public: the page and its image are not found", async () => {
    const page = await app(`/users/${owner.handle}/${pin.id}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Page Not Found");
    expect((await app(`/api/user/${owner.handle}/pins/${pin.id}/image`)).status).toBe(404);
  });

  it("only its owner can make it public: another user's pin is not found", async () => {
    const refused = await setPublic(other, pin.id, true);
    expect(refused.status).toBe(404);
    expect(await read(refused)).toEqual({ error: "Pin not found", field: "id" });
    expect((await app(`/users/${owner.handle}/${pin.id}`)).status).toBe(404);
    const bad = await post(owner, "/api/user/pinHistory/setPublic", { id: pin.id, isPublic: "yes" });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toEqual({ error: "isPublic must be true or false", field: "isPublic" });
  });

  it("made public, its page shows the pin with Open Graph and Twitter tags and nothing private", async () => {
    const made = await setPublic(owner, pin.id, true);
    expect(made.status).toBe(200);
    expect(await read(made)).toEqual({ pin: { id: pin.id, isPublic: true, publicUrl: `/users/${owner.handle}/${pin.id}` } });
    const { pinHistory } = await read(await post(owner, "/api/user/getPinHistory", { startAtDate: null }));
    expect(pinHistory[0].publicUrl).toBe(`/users/${owner.handle}/${pin.id}`);

    const page = await app(`/users/${owner.handle}/${pin.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const imageUrl = `http://app.test/api/user/${owner.handle}/pins/${pin.id}/image`;
    expect(html).toContain(`<meta property="og:image" content="${imageUrl}"/>`);
    expect(html).toContain(`<meta name="twitter:image" content="${imageUrl}"/>`);
    expect(html).toContain(`<meta property="og:title" content="Linen napkins, three folds | Pinboard Studio"/>`);
    expect(html).toContain("Three folds for a dinner table.");
    expect(html).toContain('href="https://linen.example/napkins"');
    // The owner's id (in the media key) and account never reach the public page.
    expect(html).not.toContain(owner.userId);
    expect(html).not.toContain(owner.email);
    expect(html).not.toContain(new URL(pin.imageUrl).pathname);

    const image = await app(new URL(imageUrl).pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    expect(image.headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("made private again, its page and image are gone", async () => {
    expect((await setPublic(owner, pin.id, false)).status).toBe(200);
    const page = await app(`/users/${owner.handle}/${pin.id}`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain("Page Not Found");
    expect(html).not.toContain("og:image");
    expect((await app(`/api/user/${owner.handle}/pins/${pin.id}/image`)).status).toBe(404);
    // Under another user's handle it never was there.
    await setPublic(owner, pin.id, true);
    expect((await app(`/users/${other.handle}/${pin.id}`)).status).toBe(404);
  });
});
