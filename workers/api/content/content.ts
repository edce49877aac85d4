import {
  CONTENT_ADMINS_ONLY,
  ContentIdParam,
  ContentInput,
  ContentListQuery,
  ContentSlugParam,
  PreviewContentBody,
  PublishContentBody,
} from "../../../contracts/content/content.ts";
import { adminOnly, requireUser } from "../../auth/middleware.ts";
import { purgePages } from "../../http/page-cache.ts";
import type { Env } from "../../env.ts";
import {
  addressesShowing,
  createContent,
  deleteContent,
  getContent,
  listContent,
  publishedPage,
  publishedPost,
  relatedPosts,
  renderContent,
  setPublished,
  updateContent,
} from "../../services/content/content.ts";
import { actorOf } from "../../services/admin/admin-audit.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Blog posts and pages (spec section 7, content; issue 17; decision 039): the
 * public reads of published content, and the admin's content calls (role
 * checked on the server, as the payout report's are: 403 for anyone else).
 */
export const contentApi = router();

contentApi.get("/blogs/getBlogPost/:slug", valid("param", ContentSlugParam), async (c) =>
  c.json({ post: await publishedPost(c.env, c.req.valid("param").slug) }),
);

contentApi.get("/blogs/getRelatedBlogPosts/:slug", valid("param", ContentSlugParam), async (c) =>
  c.json({ posts: await relatedPosts(c.env, c.req.valid("param").slug) }),
);

contentApi.get("/pages/getPage/:slug", valid("param", ContentSlugParam), async (c) => c.json({ page: await publishedPage(c.env, c.req.valid("param").slug) }));

/** After an admin change: the cached public pages showing these entries are purged (decision 042). */
async function purgeShowing(env: Env, ...touched: { kind: "post" | "page"; slug: string }[]) {
  await purgePages(env, await addressesShowing(env, touched));
}

const contentAdmins = adminOnly(CONTENT_ADMINS_ONLY);

contentApi.get("/admin/content", requireUser, contentAdmins, valid("query", ContentListQuery), async (c) =>
  c.json({ entries: await listContent(c.env, c.req.valid("query").kind) }),
);

contentApi.post("/admin/content/preview", requireUser, contentAdmins, valid("json", PreviewContentBody), async (c) =>
  c.json({ html: renderContent(c.env, c.req.valid("json").body) }),
);

contentApi.post("/admin/content", requireUser, contentAdmins, valid("json", ContentInput), async (c) =>
  c.json({ entry: await createContent(c.env, actorOf(c.var.auth.user), c.req.valid("json")) }),
);

contentApi.get("/admin/content/:id", requireUser, contentAdmins, valid("param", ContentIdParam), async (c) =>
  c.json({ entry: await getContent(c.env, c.req.valid("param").id) }),
);

contentApi.post("/admin/content/:id", requireUser, contentAdmins, valid("param", ContentIdParam), valid("json", ContentInput), async (c) => {
  const before = await getContent(c.env, c.req.valid("param").id);
  const entry = await updateContent(c.env, actorOf(c.var.auth.user), before.id, c.req.valid("json"));
  await purgeShowing(c.env, before, entry);
  return c.json({ entry });
});

contentApi.post("/admin/content/:id/publish", requireUser, contentAdmins, valid("param", ContentIdParam), valid("json", PublishContentBody), async (c) => {
  const entry = await setPublished(c.env, actorOf(c.var.auth.user), c.req.valid("param").id, c.req.valid("json").published);
  await purgeShowing(c.env, entry);
  return c.json({ entry });
});

contentApi.delete("/admin/content/:id", requireUser, contentAdmins, valid("param", ContentIdParam), async (c) => {
  const before = await getContent(c.env, c.req.valid("param").id);
  await deleteContent(c.env, actorOf(c.var.auth.user), before.id);
  await purgeShowing(c.env, before);
  return c.json({ deleted: true });
});
