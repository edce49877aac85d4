import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, templateCategories, templates, users } from "../../../workers/db/schema.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { db } from "../billing/billing-support.ts";
import { app, read } from "../support.ts";

// The admin console's standard templates and categories (issue 20, decision 053).

const ADMIN_LIST = "/api/admin/standardTemplates";
const ADMINS_ONLY = "Only admins can manage standard templates.";

const design = (title: string, categories: string[]) => ({
  title,
  background: "#fdf6ec",
  categories,
  layers: [
    { type: "Image", id: "photo", name: "Photo", x: 0, y: 0, width: 1000, height: 900 },
    { type: "SVG", id: "band", name: "Band", shape: "rect", x: 0, y: 900, width: 1000, height: 600, fill: "pin" },
    { type: "text", id: "title", name: "Title", content: "title", x: 80, y: 960, width: 840, height: 380 },
  ],
});

function call(path: string, user: TestUser | null, body?: unknown) {
  const auth = user ? bearer(user.tokens) : {};
  return body === undefined ? app(path, { headers: auth }) : app(path, json(body, auth));
}

async function signUpAdmin(): Promise<TestUser> {
  const admin = await signUpUser({ firstName: "Ada" });
  await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
  return admin;
}

/** A new standard template in `category`, made through the admin call and published. */
async function createStandard(admin: TestUser, title: string, category: string, publish = true): Promise<string> {
  const response = await call(ADMIN_LIST, admin, { template: design(title, [category]) });
  expect(response.status).toBe(201);
  const { template } = await read(response);
  expect(template).toMatchObject({ title, categories: [category], isPublished: false });
  if (publish) expect((await call(`${ADMIN_LIST}/${template.templateId}/publish`, admin, { published: true })).status).toBe(200);
  return template.templateId;
}

async function standardTitlesFor(user: TestUser, category: string): Promise<string[]> {
  const response = await call(`/api/templates/standardTemplates?category=${encodeURIComponent(category)}`, user);
  expect(response.status).toBe(200);
  return (await read(response)).templates.map((template: { title: string }) => template.title);
}

async function auditOf(targetKind: string, targetId: string) {
  return db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetKind, targetKind), eq(adminAuditLog.targetId, targetId)));
}

let admin: TestUser;
let user: TestUser;
let category: string;
beforeAll(async () => {
  admin = await signUpAdmin();
  user = await signUpUser();
  category = `Admin test ${crypto.randomUUID().slice(0, 6)}`;
});

describe("standard template admin calls are refused to everyone but admins", () => {
  it("answers 403 to a signed-in user and 401 to a visitor, changing nothing", async () => {
    const id = await createStandard(admin, "Guarded", category, false);
    const calls: [string, unknown?][] = [
      [ADMIN_LIST],
      [ADMIN_LIST, { template: design("Sneaky", [category]) }],
      [`${ADMIN_LIST}/${id}/publish`, { published: true }],
      [`${ADMIN_LIST}/reorder`, { category, templateIds: [id] }],
      ["/api/admin/templateCategories", { name: "Sneaky" }],
      ["/api/admin/templateCategories/reorder", { categoryIds: ["std-cat-food"] }],
    ];
    for (const [path, body] of calls) {
      const refused = await call(path, user, body);
      expect(refused.status, `${path} as a user`).toBe(403);
      expect((await read(refused)).error).toBe(ADMINS_ONLY);
      expect((await call(path, null, body)).status, `${path} as a visitor`).toBe(401);
    }
    const row = await db.query.templates.findFirst({ where: eq(templates.id, id) });
    expect(row).toMatchObject({ isPublished: false });
    expect(await db.select().from(templates).where(eq(templates.title, "Sneaky"))).toEqual([]);
    expect(await db.select().from(templateCategories).where(eq(templateCategories.name, "Sneaky"))).toEqual([]);
  });

  it("refuses a user's save of a standard template in the editor's call, and an admin's save is audited", async () => {
    const id = await createStandard(admin, "Editable", category);
    const update = (who: TestUser, title: string) => call("/api/templates/updateTemplate", who, { template: { ...design(title, [category]), templateId: id } });
    const refused = await update(user, "Hijacked");
    expect(refused.status).toBe(403);
    expect((await db.query.templates.findFirst({ where: eq(templates.id, id) }))!.title).toBe("Editable");

    const saved = await update(admin, "Edited by an admin");
    expect(saved.status).toBe(200);
    expect((await read(saved)).template).toMatchObject({ title: "Edited by an admin", isStandardTemplate: true });
    const edits = (await auditOf("template", id)).filter((entry) => entry.action === "template.edit");
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatchObject({ adminEmail: admin.email, before: { title: "Editable" }, after: { title: "Edited by an admin", categories: [category] } });
    expect(await standardTitlesFor(user, category)).toContain("Edited by an admin");
  });
});

describe("publishing", () => {
  it("a new standard template is hidden until published; unpublished it is gone from lists, sets and reads", async () => {
    const id = await createStandard(admin, "Seasonal", category, false);
    expect(await standardTitlesFor(user, category)).not.toContain("Seasonal");
    // The admin can open it (in the editor) before publishing.
    expect((await call(`/api/template/${id}`, admin)).status).toBe(200);
    expect((await call(`/api/template/${id}`, user)).status).toBe(404);

    const published = await call(`${ADMIN_LIST}/${id}/publish`, admin, { published: true });
    expect(published.status).toBe(200);
    expect((await read(published)).template).toMatchObject({ isPublished: true });
    expect(await standardTitlesFor(user, category)).toContain("Seasonal");
    expect((await call(`/api/template/${id}`, user)).status).toBe(200);
    const set = await read(await call("/api/templates/getTemplateSet", user, { templateSet: [id] }));
    expect(set.templates.map((template: { templateId: string }) => template.templateId)).toEqual([id]);

    expect((await call(`${ADMIN_LIST}/${id}/publish`, admin, { published: false })).status).toBe(200);
    expect(await standardTitlesFor(user, category)).not.toContain("Seasonal");
    const all = await read(await call("/api/templates/standardTemplates", user));
    expect(all.templates.map((template: { templateId: string }) => template.templateId)).not.toContain(id);
    // /generate asks for its templates as a set: an unpublished one is replaced by a published one.
    const after = await read(await call("/api/templates/getTemplateSet", user, { templateSet: [id] }));
    expect(after.templates.map((template: { templateId: string }) => template.templateId)).not.toContain(id);
    expect((await call(`/api/template/${id}`, user)).status).toBe(404);
    // The editor's page answers not found too.
    expect((await app(`/template-builder/${id}`, { headers: { cookie: user.cookie } })).status).toBe(404);

    const actions = (await auditOf("template", id)).map((entry) => entry.action).sort();
    expect(actions).toEqual(["template.create", "template.publish", "template.unpublish"]);
    const unpublish = (await auditOf("template", id)).find((entry) => entry.action === "template.unpublish");
    expect(unpublish).toMatchObject({
      before: { isPublished: true },
      after: { isPublished: false },
      summary: 'Unpublished the standard template "Seasonal": users no longer see it.',
    });
  });

  it("the admin list shows published and unpublished ones; 404 for a template that is not standard", async () => {
    const hidden = await createStandard(admin, "Draft standard", category, false);
    const list = await read(await call(ADMIN_LIST, admin));
    expect(list.templates.find((template: { templateId: string }) => template.templateId === hidden)).toMatchObject({ isPublished: false });
    const own = await read(await call("/api/templates/addNewTemplate", user, { template: design("Mine", []) }));
    expect((await call(`${ADMIN_LIST}/${own.template.templateId}/publish`, admin, { published: true })).status).toBe(404);
  });
});

describe("reordering", () => {
  it("a category's new order is the order users see, other templates keep their places, audited", async () => {
    const reorderCategory = `Reorder ${crypto.randomUUID().slice(0, 6)}`;
    const a = await createStandard(admin, "Alpha", reorderCategory);
    const b = await createStandard(admin, "Bravo", reorderCategory);
    const other = await createStandard(admin, "Outsider", category);
    const c = await createStandard(admin, "Charlie", reorderCategory);
    expect(await standardTitlesFor(user, reorderCategory)).toEqual(["Alpha", "Bravo", "Charlie"]);
    // The whole gallery's order (the database may hold other files' standard templates, and gaps they left).
    const galleryOrder = async () =>
      (await db.select({ id: templates.id }).from(templates).where(eq(templates.isStandard, true)).orderBy(asc(templates.position), asc(templates.id))).map(
        (row) => row.id,
      );
    const before = await galleryOrder();

    const response = await call(`${ADMIN_LIST}/reorder`, admin, { category: reorderCategory, templateIds: [c, a, b] });
    expect(response.status).toBe(200);
    expect(await standardTitlesFor(user, reorderCategory)).toEqual(["Charlie", "Alpha", "Bravo"]);
    // The whole gallery: the three take the places the three held, and every other template keeps its place (the
    // outsider stays between them).
    const moved = new Map([
      [a, c],
      [b, a],
      [c, b],
    ]);
    const after = await galleryOrder();
    expect(after).toEqual(before.map((id) => moved.get(id) ?? id));
    expect(after.indexOf(other)).toBeGreaterThan(after.indexOf(a));
    expect(after.indexOf(other)).toBeLessThan(after.indexOf(b));
    // Positions are renumbered 0..n-1.
    const rows = await db.select({ position: templates.position }).from(templates).where(eq(templates.isStandard, true));
    expect(rows.map((row) => row.position).sort((x, y) => x - y)).toEqual(rows.map((_, i) => i));

    const [entry] = await auditOf("template-category", reorderCategory);
    expect(entry).toMatchObject({
      action: "templates.reorder",
      before: { order: ["Alpha", "Bravo", "Charlie"] },
      after: { order: ["Charlie", "Alpha", "Bravo"] },
    });

    // The list must be the category's templates, each once.
    for (const templateIds of [
      [c, a],
      [c, a, b, b],
      [c, a, other],
    ]) {
      const refused = await call(`${ADMIN_LIST}/reorder`, admin, { category: reorderCategory, templateIds });
      expect(refused.status).toBe(400);
      expect(await read(refused)).toMatchObject({ field: "templateIds" });
    }
    expect((await call(`${ADMIN_LIST}/reorder`, admin, { category: "No such category here", templateIds: [a] })).status).toBe(404);
  });

  it("standard categories: created by an admin, reordered, and users see that order", async () => {
    const name = `Cat ${crypto.randomUUID().slice(0, 6)}`;
    const created = await call("/api/admin/templateCategories", admin, { name });
    expect(created.status).toBe(201);
    const { category: made } = await read(created);
    expect((await call("/api/admin/templateCategories", admin, { name: name.toUpperCase() })).status).toBe(409);

    const userCategories = async () =>
      (await read(await call("/api/templates/categories/getTemplateCategories", user))).categories
        .filter((c: { isStandard: boolean }) => c.isStandard)
        .map((c: { id: string }) => c.id);
    const before: string[] = await userCategories();
    expect(before.at(-1)).toBe(made.id);
    const moved = [made.id, ...before.filter((id) => id !== made.id).reverse()];
    const response = await call("/api/admin/templateCategories/reorder", admin, { categoryIds: moved });
    expect(response.status).toBe(200);
    expect(await userCategories()).toEqual(moved);

    const [entry] = (await auditOf("template-category", "standard")).filter((row) => row.action === "categories.reorder");
    expect((entry!.after as { order: string[] }).order[0]).toBe(name);
    expect((await auditOf("template-category", name)).map((row) => row.action)).toEqual(["category.create"]);

    const incomplete = await call("/api/admin/templateCategories/reorder", admin, { categoryIds: moved.slice(1) });
    expect(incomplete.status).toBe(400);
    expect(await read(incomplete)).toMatchObject({ field: "categoryIds" });
  });
});

describe("the cached pages that show standard templates", () => {
  it("purges the home page when an example pin's template is unpublished or published again", async () => {
    const example = "std-product-card-01";
    await app("/");
    const cached = await app("/");
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(await cached.text()).toContain(`/example-pins/${example}?`);

    expect((await call(`${ADMIN_LIST}/${example}/publish`, admin, { published: false })).status).toBe(200);
    try {
      const after = await app("/");
      expect(after.headers.get("x-cache")).toBe("MISS");
      expect(await after.text()).not.toContain(`/example-pins/${example}?`);
      expect((await app(`/example-pins/${example}`)).status).toBe(404);
    } finally {
      expect((await call(`${ADMIN_LIST}/${example}/publish`, admin, { published: true })).status).toBe(200);
    }
    const back = await app("/");
    expect(back.headers.get("x-cache")).toBe("MISS");
    expect(await back.text()).toContain(`/example-pins/${example}?`);
  });
});
