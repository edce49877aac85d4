import { beforeAll, describe, expect, it } from "vitest";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
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

describe("a public profile's pins and old handles (issue 40 point 9)", () => {
  it("lists only the pins its owner made public, newest first, each with its page; an old handle leads to the new one", async () => {
    const owner = await signUpUser({ firstName: "Ruth" });
    await grantCredits(owner, 5);
    const first = await downloadedPin(owner, "Cotton throws, washed");
    const second = await downloadedPin(owner, "Wool rugs, hand knotted");
    await downloadedPin(owner, "A private pin");

    // Nothing public yet: an empty list, not an error.
    const empty = await app(`/api/user/${owner.handle}/pins`);
    expect(empty.status).toBe(200);
    expect(await read(empty)).toEqual({ pins: [] });

    await setPublic(owner, first.id, true);
    await setPublic(owner, second.id, true);
    const { pins } = await read(await app(`/api/user/${owner.handle}/pins`));
    expect(pins.map((pin: { title: string }) => pin.title)).toEqual(["Wool rugs, hand knotted", "Cotton throws, washed"]);
    expect(pins[0]).toEqual({
      id: second.id,
      title: "Wool rugs, hand knotted",
      description: "Three folds for a dinner table.",
      url: "https://linen.example/napkins",
      imageUrl: `http://app.test/api/user/${owner.handle}/pins/${second.id}/image`,
      mediaType: "image",
      handle: owner.handle,
    });
    expect(JSON.stringify(pins)).not.toContain(owner.userId);
    expect((await app("/api/user/no-such-handle-x9/pins")).status).toBe(404);

    // A new handle: the old one's profile, pins and pin pages lead to it.
    const oldHandle = owner.handle;
    const newHandle = `ruth_${Date.now().toString(36)}`;
    expect((await app("/api/user", json({ updates: { handle: newHandle } }, bearer(owner.tokens)))).status).toBe(200);
    expect((await read(await app(`/api/user/${oldHandle}`))).user.handle).toBe(newHandle);
    const moved = await read(await app(`/api/user/${oldHandle}/pins`));
    expect(moved.pins.map((pin: { handle: string }) => pin.handle)).toEqual([newHandle, newHandle]);
    const oldPage = await app(`/users/${oldHandle}/${first.id}`, { redirect: "manual" });
    expect(oldPage.status).toBe(301);
    expect(new URL(oldPage.headers.get("location")!, "http://app.test").pathname).toBe(`/users/${newHandle}/${first.id}`);

    // Someone who takes the old handle has it: their profile wins over the redirect.
    const newcomer = await signUpUser({ firstName: "Neil" });
    expect((await app("/api/user", json({ updates: { handle: oldHandle } }, bearer(newcomer.tokens)))).status).toBe(200);
    expect((await read(await app(`/api/user/${oldHandle}`))).user.firstName).toBe("Neil");
    expect(await read(await app(`/api/user/${oldHandle}/pins`))).toEqual({ pins: [] });
  });
});
