import { PhotonImage } from "@cf-wasm/photon/workerd";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../../../workers/db/client.ts";
import { templates, users } from "../../../workers/db/schema.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

const db = database(testEnv.DB);

const design = (title = "My banner") => ({
  title,
  background: "#fdf6ec",
  categories: ["Blog"],
  layers: [
    { type: "Image", id: "photo", name: "Photo", x: 0, y: 0, width: 1000, height: 900 },
    { type: "SVG", id: "band", name: "Band", shape: "rect", x: 0, y: 900, width: 1000, height: 600, fill: "pin" },
    { type: "text", id: "title", name: "Title", content: "title", x: 80, y: 960, width: 840, height: 380 },
  ],
});

async function addTemplate(user: TestUser, title?: string) {
  const response = await app("/api/templates/addNewTemplate", json({ template: design(title) }, bearer(user.tokens)));
  expect(response.status).toBe(201);
  return (await read(response)).template;
}

/** A standard template as the seed would store it. */
async function insertStandard(id: string, title = "Standard") {
  await db
    .insert(templates)
    .values({
      id,
      ownerId: null,
      title,
      design: { layers: design().layers, background: "#ffffff" },
      categories: ["Blog"],
      isStandard: true,
      updatedAt: Date.now(),
    })
    .onConflictDoNothing();
}

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await signUpUser({ firstName: "Alice" });
  bob = await signUpUser({ firstName: "Bob" });
  await insertStandard("std-test-1", "Standard one");
  await insertStandard("std-test-2", "Standard two");
});

describe("user templates", () => {
  it("creates, lists, reads, updates and deletes the user's own templates", async () => {
    const created = await addTemplate(alice, "Alice banner");
    expect(created).toMatchObject({ title: "Alice banner", isStandardTemplate: false, isShared: false, isOwn: true, categories: ["Blog"] });
    expect(created.layers[0]).toMatchObject({ type: "Image", containsImage: true, useDetectedImages: true, useLogoImage: false });
    // Designing a template ticks the onboarding step.
    const { credentials } = await read(await app("/api/user", { headers: bearer(alice.tokens) }));
    expect(credentials.onboardingChecklist.find((s: { name: string }) => s.name === "createTemplate").isChecked).toBe(true);

    const list = await read(await app("/api/templates", { headers: bearer(alice.tokens) }));
    expect(list.templates.map((t: { templateId: string }) => t.templateId)).toContain(created.templateId);

    const fetched = await read(await app(`/api/template/${created.templateId}`, { headers: bearer(alice.tokens) }));
    expect(fetched.template.title).toBe("Alice banner");

    const updated = await app(
      "/api/templates/updateTemplate",
      json({ template: { ...design("Renamed"), templateId: created.templateId, isShared: true } }, bearer(alice.tokens)),
    );
    expect(updated.status).toBe(200);
    expect((await read(updated)).template).toMatchObject({ title: "Renamed", isShared: true });

    const recent = await read(await app("/api/userTemplates/recentlyUpdatedTemplates", { headers: bearer(alice.tokens) }));
    expect(recent.templates[0].templateId).toBe(created.templateId);

    expect((await app(`/api/template/${created.templateId}`, { method: "DELETE", headers: bearer(alice.tokens) })).status).toBe(200);
    expect((await app(`/api/template/${created.templateId}`, { headers: bearer(alice.tokens) })).status).toBe(404);
  });

  it("pages by last template id", async () => {
    const paging = await signUpUser();
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) ids.push((await addTemplate(paging, `T${i}`)).templateId);
    const first = await read(await app("/api/templates", { headers: bearer(paging.tokens) }));
    expect(first.templates).toHaveLength(24);
    expect(first.hasMore).toBe(true);
    const second = await read(await app(`/api/templates?lastTemplateId=${first.lastTemplateId}`, { headers: bearer(paging.tokens) }));
    expect(second.templates).toHaveLength(2);
    expect(second.hasMore).toBe(false);
    const all = [...first.templates, ...second.templates].map((t: { templateId: string }) => t.templateId);
    expect(new Set(all)).toEqual(new Set(ids));
  });

  it("keeps another user's private template untouchable: not readable, changeable or deletable", async () => {
    const secret = await addTemplate(alice, "Alice private");
    expect((await app(`/api/template/${secret.templateId}`, { headers: bearer(bob.tokens) })).status).toBe(404);
    const update = await app("/api/templates/updateTemplate", json({ template: { ...design("Hijacked"), templateId: secret.templateId } }, bearer(bob.tokens)));
    expect(update.status).toBe(404);
    expect((await app(`/api/template/${secret.templateId}`, { method: "DELETE", headers: bearer(bob.tokens) })).status).toBe(404);
    expect((await app("/api/templates/unshareTemplate", json({ templateId: secret.templateId }, bearer(bob.tokens)))).status).toBe(404);
    const row = await db.query.templates.findFirst({ where: eq(templates.id, secret.templateId) });
    expect(row?.title).toBe("Alice private");
    // Nor does it appear in Bob's lists.
    const bobs = await read(await app("/api/templates", { headers: bearer(bob.tokens) }));
    expect(bobs.templates.map((t: { templateId: string }) => t.templateId)).not.toContain(secret.templateId);
  });

  it("shares a template: others see it with its favourite count but cannot change it; unsharing hides it", async () => {
    const shared = await addTemplate(alice, "Alice shared");
    await app(
      "/api/templates/updateTemplate",
      json({ template: { ...design("Alice shared"), templateId: shared.templateId, isShared: true } }, bearer(alice.tokens)),
    );
    const listed = await app("/api/templates/sharedTemplates/getSharedTemplates", { headers: bearer(bob.tokens) });
    const listText = await listed.text();
    // Others see whether a template is theirs, never whose it is.
    expect(listText).not.toContain(alice.userId);
    const list = JSON.parse(listText);
    expect(list.templates.find((t: { templateId: string }) => t.templateId === shared.templateId)).toMatchObject({ isOwn: false });
    expect(await (await app(`/api/template/${shared.templateId}`, { headers: bearer(bob.tokens) })).text()).not.toContain(alice.userId);

    const favorite = await read(await app("/api/user/templates/toggleTemplateFavorite", json({ templateId: shared.templateId }, bearer(bob.tokens))));
    expect(favorite).toEqual({ templateId: shared.templateId, isFavorite: true, favoriteCount: 1 });
    const again = await read(await app("/api/user/templates/toggleTemplateFavorite", json({ templateId: shared.templateId }, bearer(bob.tokens))));
    expect(again).toEqual({ templateId: shared.templateId, isFavorite: false, favoriteCount: 0 });

    const change = await app(
      "/api/templates/updateTemplate",
      json({ template: { ...design("Bob was here"), templateId: shared.templateId } }, bearer(bob.tokens)),
    );
    expect(change.status).toBe(403);
    expect((await app(`/api/template/${shared.templateId}`, { method: "DELETE", headers: bearer(bob.tokens) })).status).toBe(403);

    expect((await app("/api/templates/unshareTemplate", json({ templateId: shared.templateId }, bearer(alice.tokens)))).status).toBe(200);
    expect((await app(`/api/template/${shared.templateId}`, { headers: bearer(bob.tokens) })).status).toBe(404);
  });

  it("answers 400 naming the field for a template with bad layers, and stores nothing", async () => {
    const before = (await read(await app("/api/templates", { headers: bearer(bob.tokens) }))).templates.length;
    const cases: [unknown, string][] = [
      [{ ...design(), layers: [{ type: "Sticker", id: "s", name: "S", x: 0, y: 0, width: 10, height: 10 }] }, "template.layers.0.type"],
      [{ ...design(), layers: [{ type: "text", id: "t", name: "T", x: 0, y: 0, width: 0, height: 10, content: "title" }] }, "template.layers.0.width"],
      [{ ...design(), layers: [{ type: "SVG", id: "s", name: "S", x: 0, y: 0, width: 10, height: 10, shape: "rect", fill: "red" }] }, "template.layers.0.fill"],
      [{ ...design(), layers: [{ type: "text", id: "t", name: "T", x: 0, y: 0, width: 10, height: 10, content: "poem" }] }, "template.layers.0.content"],
      [{ ...design(), title: "" }, "template.title"],
    ];
    for (const [template, field] of cases) {
      const response = await app("/api/templates/addNewTemplate", json({ template }, bearer(bob.tokens)));
      expect(response.status, field).toBe(400);
      expect((await read(response)).field).toBe(field);
    }
    expect((await read(await app("/api/templates", { headers: bearer(bob.tokens) }))).templates.length).toBe(before);
  });

  it("requires sign-in", async () => {
    expect((await app("/api/templates")).status).toBe(401);
    expect((await app("/api/templates/standardTemplates")).status).toBe(401);
  });
});

describe("standard templates", () => {
  it("are read-only for users and editable by admins", async () => {
    const standard = await read(await app("/api/template/std-test-1", { headers: bearer(alice.tokens) }));
    expect(standard.template.isStandardTemplate).toBe(true);
    const refused = await app("/api/templates/updateTemplate", json({ template: { ...design("Mine now"), templateId: "std-test-1" } }, bearer(alice.tokens)));
    expect(refused.status).toBe(403);
    expect((await read(refused)).error).toBe("Standard templates cannot be changed. Duplicate it to make your own.");
    expect((await app("/api/template/std-test-1", { method: "DELETE", headers: bearer(alice.tokens) })).status).toBe(403);

    const admin = await signUpUser({ firstName: "Admin" });
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
    const allowed = await app(
      "/api/templates/updateTemplate",
      json({ template: { ...design("Standard one, improved"), templateId: "std-test-1" } }, bearer(admin.tokens)),
    );
    expect(allowed.status).toBe(200);
    expect((await read(allowed)).template).toMatchObject({ title: "Standard one, improved", isStandardTemplate: true });
  });

  it("are listed for everyone signed in, and filtered by category", async () => {
    const all = await read(await app("/api/templates/standardTemplates", { headers: bearer(bob.tokens) }));
    expect(all.templates.map((t: { templateId: string }) => t.templateId)).toEqual(expect.arrayContaining(["std-test-1", "std-test-2"]));
    const none = await read(await app("/api/templates/standardTemplates?category=NoSuchCategory", { headers: bearer(bob.tokens) }));
    expect(none.templates).toEqual([]);
  });

  it("a template set keeps its order, and an id that is not found falls back to another template", async () => {
    const mine = await addTemplate(bob, "Bob set");
    const secret = await addTemplate(alice, "Alice secret");
    const response = await app(
      "/api/templates/getTemplateSet",
      json({ templateSet: [mine.templateId, "does-not-exist", secret.templateId] }, bearer(bob.tokens)),
    );
    const { templates: set } = await read(response);
    expect(set).toHaveLength(3);
    expect(set[0].templateId).toBe(mine.templateId);
    for (const replacement of set.slice(1)) {
      expect(replacement.isStandardTemplate).toBe(true);
      expect(replacement.templateId).not.toBe(secret.templateId);
    }
  });
});

describe("template categories", () => {
  it("adds and deletes the user's own categories; another user's cannot be deleted", async () => {
    const added = await app("/api/templates/categories/addTemplateCategory", json({ name: "Recipes 2027" }, bearer(alice.tokens)));
    expect(added.status).toBe(201);
    const { category } = await read(added);
    const duplicate = await app("/api/templates/categories/addTemplateCategory", json({ name: "recipes 2027" }, bearer(alice.tokens)));
    expect(duplicate.status).toBe(409);
    expect((await read(duplicate)).field).toBe("name");

    const bobsView = await read(await app("/api/templates/categories/getTemplateCategories", { headers: bearer(bob.tokens) }));
    expect(bobsView.categories.map((c: { id: string }) => c.id)).not.toContain(category.id);
    expect((await app(`/api/templates/categories/deleteTemplateCategory/${category.id}`, { method: "DELETE", headers: bearer(bob.tokens) })).status).toBe(404);
    expect((await app(`/api/templates/categories/deleteTemplateCategory/${category.id}`, { method: "DELETE", headers: bearer(alice.tokens) })).status).toBe(
      200,
    );

    const empty = await app("/api/templates/categories/addTemplateCategory", json({ name: "   " }, bearer(alice.tokens)));
    expect(empty.status).toBe(400);
    expect(await read(empty)).toEqual({ error: "name is required", field: "name" });
  });
});

describe("POST /highMemLimitApi/scraping/renderTemplateImage", () => {
  it("renders a 1000x1500 JPEG into the user's media and answers its URL", async () => {
    const response = await app(
      "/highMemLimitApi/scraping/renderTemplateImage",
      json(
        {
          post: {
            template: design(),
            title: "Spring garden checklist 🌷 for beginners",
            allImages: [`${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`],
            color: { r: 81, g: 195, b: 166, a: 1 },
          },
        },
        bearer(alice.tokens),
      ),
    );
    expect(response.status).toBe(200);
    const { url, fileName } = await read(response);
    expect(fileName).toMatch(/^Spring-garden-checklist-for-beginners-\d+\.jpeg$/);
    expect(new URL(url).pathname).toMatch(new RegExp(`^/media/users/${alice.userId}/pins/[^/]+/${fileName}$`));
    const served = await app(new URL(url).pathname);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const image = PhotonImage.new_from_byteslice(new Uint8Array(await served.arrayBuffer()));
    expect([image.get_width(), image.get_height()]).toEqual([1000, 1500]);
    image.free();
  });

  it("refuses a post without a valid template with 400", async () => {
    const response = await app("/highMemLimitApi/scraping/renderTemplateImage", json({ post: { title: "x" } }, bearer(alice.tokens)));
    expect(response.status).toBe(400);
    expect((await read(response)).field).toBe("post.template");
  });
});
