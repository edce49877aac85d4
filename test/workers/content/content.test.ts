import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adminAuditLog, users } from "../../../workers/db/schema.ts";
import { SEED_CONTENT } from "../../../workers/db/seed/content.ts";
import { renderMarkdown, rewriteBlogLink } from "../../../workers/content/markdown.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { db } from "../billing/billing-support.ts";
import { app, read, testEnv } from "../support.ts";

// Blog posts and pages (issue 17, decision 039): published content read by anyone, drafts by nobody but
// admins, Markdown rendered without any way to run a script, blog links kept on this site.

const hosts = { appUrl: "https://app.pinboard.studio", legacyOrigins: "https://blog.pinboard.studio,https://www.pinboard.studio" };

async function admin(): Promise<TestUser> {
  const user = await signUpUser();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, user.userId));
  return user;
}

let counter = 0;
function draft(fields: Record<string, unknown> = {}) {
  counter += 1;
  return {
    kind: "post",
    slug: `test-post-${Date.now().toString(36)}-${counter}`,
    title: "Board names that help search",
    description: "Why focused board names bring more readers.",
    body: "Name boards the way people search.\n\nRead [the basics](https://blog.pinboard.studio/pinterest-seo-basics/).",
    author: "Test Author",
    ...fields,
  };
}

async function create(user: TestUser, body: Record<string, unknown>) {
  const response = await app("/api/admin/content", json(body, bearer(user.tokens)));
  expect(response.status).toBe(200);
  return (await read(response)).entry as { id: string; slug: string; status: string; publishedAt: number | null };
}

const publish = (user: TestUser, id: string, published: boolean) => app(`/api/admin/content/${id}/publish`, json({ published }, bearer(user.tokens)));

describe("Markdown rendering", () => {
  it("escapes HTML written in the Markdown and drops script links, so content cannot run a script", () => {
    const html = renderMarkdown(
      [
        '<script>alert("x")</script>',
        "",
        '<img src="x" onerror="alert(1)">',
        "",
        "[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) ![pic](javascript:alert(2))",
        "",
        '<a href="https://evil.example" onclick="steal()">inline</a> and **bold**',
      ].join("\n"),
      hosts,
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img src="x"/);
    expect(html).not.toMatch(/<a href="https:\/\/evil/);
    expect(html).not.toMatch(/href="javascript:|href="data:|src="javascript:/i);
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("<strong>bold</strong>");
  });

  it("rewrites links to the product's blog (old host or this app's /blog) to the /blog path, and leaves others alone", () => {
    expect(rewriteBlogLink("https://blog.pinboard.studio/how-often-should-you-pin/", hosts)).toBe("/blog/how-often-should-you-pin");
    expect(rewriteBlogLink("https://blog.pinboard.studio/", hosts)).toBe("/blog");
    expect(rewriteBlogLink("https://www.pinboard.studio/blog/pin-design?ref=x#tips", hosts)).toBe("/blog/pin-design?ref=x#tips");
    expect(rewriteBlogLink("https://app.pinboard.studio/blog/one-post-ten-pins", hosts)).toBe("/blog/one-post-ten-pins");
    expect(rewriteBlogLink("https://app.pinboard.studio/pricing", hosts)).toBe("https://app.pinboard.studio/pricing");
    expect(rewriteBlogLink("https://blog.example.com/some-post", hosts)).toBe("https://blog.example.com/some-post");
    expect(rewriteBlogLink("/generate", hosts)).toBe("/generate");
    const html = renderMarkdown("See [this](https://blog.pinboard.studio/pinterest-seo-basics/) and [that](https://other.example/a?b=1&c=2).", hosts);
    expect(html).toContain('<a href="/blog/pinterest-seo-basics">this</a>');
    expect(html).toContain('<a href="https://other.example/a?b=1&amp;c=2">that</a>');
  });
});

describe("content API", () => {
  it("serves a published post and page with sanitised HTML and rewritten blog links; unknown slugs answer 404", async () => {
    const seeded = SEED_CONTENT.filter((entry) => entry.kind === "post");
    expect(seeded.length).toBeGreaterThanOrEqual(6);
    const response = await app("/api/blogs/getBlogPost/pinterest-seo-basics");
    expect(response.status).toBe(200);
    const { post } = await read(response);
    expect(post.title).toBe("Pinterest SEO basics: how people find your pins");
    expect(post.html).toContain("<h2>Where Pinterest reads your keywords</h2>");
    // The seeded post links the old blog host: readers stay on this site.
    expect(post.html).toContain('href="/blog/how-often-should-you-pin"');
    expect(post.html).not.toContain("blog.pinboard.studio");
    expect(post).not.toHaveProperty("body");

    expect((await app("/api/blogs/getBlogPost/no-such-post")).status).toBe(404);
    expect((await app("/api/pages/getPage/no-such-page")).status).toBe(404);
    // A page is not a post, nor a post a page.
    expect((await app("/api/blogs/getBlogPost/about")).status).toBe(404);
    expect((await app("/api/pages/getPage/pinterest-seo-basics")).status).toBe(404);
    const page = await app("/api/pages/getPage/about");
    expect(page.status).toBe(200);
    expect((await read(page)).page.html).toContain('<a href="/blog">The blog</a>');

    const bad = await app("/api/blogs/getBlogPost/Not%20A%20Slug");
    expect(bad.status).toBe(400);
    expect((await read(bad)).field).toBe("slug");
  });

  it("lists related posts: other published posts, those sharing words first, never the post itself or a draft", async () => {
    const editor = await admin();
    const hidden = await create(editor, draft({ title: "Pinterest SEO secrets draft", description: "SEO keywords search boards" }));
    const response = await app("/api/blogs/getRelatedBlogPosts/pinterest-seo-basics");
    expect(response.status).toBe(200);
    const { posts } = await read(response);
    expect(posts.length).toBe(3);
    const slugs = posts.map((p: { slug: string }) => p.slug);
    expect(slugs).not.toContain("pinterest-seo-basics");
    expect(slugs).not.toContain(hidden.slug);
    expect((await app("/api/blogs/getRelatedBlogPosts/no-such-post")).status).toBe(404);
  });

  it("keeps a draft private until an admin publishes it, and takes it back when unpublished or deleted", async () => {
    const editor = await admin();
    const entry = await create(editor, draft({ body: "Hello <script>alert(1)</script> [x](javascript:alert(1))" }));
    expect(entry.status).toBe("draft");
    expect(entry.publishedAt).toBeNull();
    expect((await app(`/api/blogs/getBlogPost/${entry.slug}`)).status).toBe(404);

    const preview = await read(await app("/api/admin/content/preview", json({ body: "# Title\n\n<script>x</script>" }, bearer(editor.tokens))));
    expect(preview.html).toBe("<h1>Title</h1>\n&lt;script&gt;x&lt;/script&gt;");

    const published = await read(await publish(editor, entry.id, true));
    expect(published.entry.status).toBe("published");
    const shown = await read(await app(`/api/blogs/getBlogPost/${entry.slug}`));
    expect(shown.post.html).not.toMatch(/<script|javascript:/);
    expect(shown.post.publishedAt).toBe(published.entry.publishedAt);

    // Editing keeps the first publication date; the slug can change; another post's slug is refused.
    const edited = await app(`/api/admin/content/${entry.id}`, json(draft({ slug: `${entry.slug}-v2`, title: "Edited title" }), bearer(editor.tokens)));
    expect(edited.status).toBe(200);
    expect((await read(edited)).entry.publishedAt).toBe(published.entry.publishedAt);
    expect((await app(`/api/blogs/getBlogPost/${entry.slug}-v2`)).status).toBe(200);
    const clash = await app(`/api/admin/content/${entry.id}`, json(draft({ slug: "pinterest-seo-basics" }), bearer(editor.tokens)));
    expect(clash.status).toBe(409);
    expect((await read(clash)).field).toBe("slug");

    expect((await publish(editor, entry.id, false)).status).toBe(200);
    expect((await app(`/api/blogs/getBlogPost/${entry.slug}-v2`)).status).toBe(404);
    expect((await app(`/api/admin/content/${entry.id}`, { method: "DELETE", headers: bearer(editor.tokens) })).status).toBe(200);
    expect((await app(`/api/admin/content/${entry.id}`, { headers: bearer(editor.tokens) })).status).toBe(404);
  });

  it("names the field at fault for bad input and writes nothing", async () => {
    const editor = await admin();
    const before = (await read(await app("/api/admin/content", { headers: bearer(editor.tokens) }))).entries.length;
    for (const [fields, field] of [
      [{ slug: "Has Spaces" }, "slug"],
      [{ title: "" }, "title"],
      [{ kind: "video" }, "kind"],
      [{ coverImage: "javascript:alert(1)" }, "coverImage"],
      [{ body: "   " }, "body"],
    ] as const) {
      const response = await app("/api/admin/content", json(draft(fields), bearer(editor.tokens)));
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect((await read(response)).field).toBe(field);
    }
    expect((await read(await app("/api/admin/content", { headers: bearer(editor.tokens) }))).entries.length).toBe(before);
  });

  it("writes each admin change to the audit log: who, what, before and after", async () => {
    const editor = await admin();
    const entry = await create(editor, draft({ title: "Audit me" }));
    const updated = await app(`/api/admin/content/${entry.id}`, json(draft({ slug: entry.slug, title: "Audited title" }), bearer(editor.tokens)));
    expect(updated.status).toBe(200);
    expect((await publish(editor, entry.id, true)).status).toBe(200);
    expect((await app(`/api/admin/content/${entry.id}`, { method: "DELETE", headers: bearer(editor.tokens) })).status).toBe(200);
    const log = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, entry.id)).orderBy(adminAuditLog.createdAt);
    expect(log.map((row) => row.action)).toEqual(["content.create", "content.edit", "content.publish", "content.delete"]);
    expect(log.every((row) => row.adminId === editor.userId && row.adminEmail === editor.email)).toBe(true);
    expect(log[1]).toMatchObject({ before: expect.objectContaining({ title: "Audit me" }), after: expect.objectContaining({ title: "Audited title" }) });
    expect(log[2]).toMatchObject({ before: expect.objectContaining({ status: "draft" }), after: expect.objectContaining({ status: "published" }) });
    expect(log[3]).toMatchObject({ summary: 'Deleted the blog post "Audited title".', after: null });
  });

  it("refuses every admin content call to a signed-in non-admin (403) and a signed-out visitor (401)", async () => {
    const editor = await admin();
    const entry = await create(editor, draft());
    const someone = await signUpUser();
    const calls: [string, RequestInit][] = [
      ["/api/admin/content", { headers: bearer(someone.tokens) }],
      ["/api/admin/content", json(draft(), bearer(someone.tokens))],
      ["/api/admin/content/preview", json({ body: "x" }, bearer(someone.tokens))],
      [`/api/admin/content/${entry.id}`, { headers: bearer(someone.tokens) }],
      [`/api/admin/content/${entry.id}`, json(draft(), bearer(someone.tokens))],
      [`/api/admin/content/${entry.id}/publish`, json({ published: true }, bearer(someone.tokens))],
      [`/api/admin/content/${entry.id}`, { method: "DELETE", headers: bearer(someone.tokens) }],
    ];
    for (const [path, init] of calls) {
      const response = await app(path, init);
      expect(response.status, `${init.method ?? "GET"} ${path}`).toBe(403);
      expect((await read(response)).error).toBe("Only admins can manage blog posts and pages.");
      const { authorization: _, ...anonymous } = (init.headers ?? {}) as Record<string, string>;
      expect((await app(path, { ...init, headers: anonymous })).status, `signed out ${path}`).toBe(401);
    }
    // Nothing changed: still a draft, still there.
    expect((await read(await app(`/api/admin/content/${entry.id}`, { headers: bearer(editor.tokens) }))).entry.status).toBe("draft");
  });
});

describe("/sitemap.xml and /robots.txt", () => {
  it("lists every public page and every published post and page, and no draft", async () => {
    const editor = await admin();
    const hidden = await create(editor, draft());
    const shown = await create(editor, draft());
    expect((await publish(editor, shown.id, true)).status).toBe(200);
    const response = await app("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("xml");
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
    const origin = new URL(testEnv.APP_URL).origin;
    expect(xml).toContain(`<loc>${origin}/blog</loc>`);
    for (const path of ["/", "/pricing", "/blog", "/privacy-policy", "/terms-and-conditions"]) expect(locs).toContain(path);
    for (const entry of SEED_CONTENT) expect(locs).toContain(`${entry.kind === "post" ? "/blog/" : "/page/"}${entry.slug}`);
    expect(locs).toContain(`/blog/${shown.slug}`);
    expect(locs).not.toContain(`/blog/${hidden.slug}`);

    const robots = await (await app("/robots.txt")).text();
    expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(robots).toContain("Disallow: /api/");
  });
});

describe("blog and content pages, rendered on the server", () => {
  it("renders the blog list, a post with its tags and related posts, and the not-found view with a real 404", async () => {
    const origin = new URL(testEnv.APP_URL).origin;
    const list = await app("/blog");
    expect(list.status).toBe(200);
    const listHtml = await list.text();
    expect(listHtml).toContain("<h1>Blog</h1>");
    expect(listHtml).toContain('href="/blog/pinterest-for-affiliate-marketers"');
    expect(listHtml).toContain(`<link rel="canonical" href="${origin}/blog"/>`);

    const post = await app("/blog/pin-design-that-gets-clicks");
    expect(post.status).toBe(200);
    const html = await post.text();
    expect(html).toContain("<title>Pin design that gets clicks: seven rules we test every template against | Pinboard Studio</title>");
    expect(html).toContain(`<link rel="canonical" href="${origin}/blog/pin-design-that-gets-clicks"/>`);
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toContain('<meta property="og:title" content="Pin design that gets clicks');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain("<h2>1. Use the 2:3 shape</h2>");
    expect(html).toContain("Related posts");
    // A link to the app's own /blog address became a path on this site.
    const other = await (await app("/blog/how-often-should-you-pin")).text();
    expect(other).toContain('<a href="/blog/pin-design-that-gets-clicks">what makes a pin get clicked</a>');

    for (const path of ["/blog/no-such-post", "/blog/..%2f..%2f", "/page/no-such-page", "/page/pinterest-seo-basics"]) {
      const missing = await app(path);
      expect(missing.status, path).toBe(404);
      expect(await missing.text()).toContain("Sorry, the page you tried cannot be found.");
    }
    const about = await app("/page/about");
    expect(about.status).toBe(200);
    expect(await about.text()).toContain("<h1>About Pinboard Studio</h1>");
  });

  it("pages the blog list, newest first", async () => {
    const editor = await admin();
    // Enough published posts for a second page (9 a page).
    for (let i = 0; i < 4; i++) {
      const entry = await create(editor, draft({ title: `Paging post ${i}` }));
      await publish(editor, entry.id, true);
    }
    const first = await (await app("/blog")).text();
    expect(first).toContain("Page 1 of");
    expect(first).toContain("Paging post 3"); // newest first
    const second = await app("/blog?page=2");
    expect(second.status).toBe(200);
    const secondHtml = await second.text();
    expect(secondHtml).toContain("Page 2 of");
    expect(secondHtml).toContain("Newer posts");
    expect((await app("/blog?page=abc")).status).toBe(200);
  });
});
