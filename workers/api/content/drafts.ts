import { CreateDraftBody, DraftIdParam, DraftsPageQuery, RenameDraftBody, UpdateDraftBody } from "../../../contracts/content/library.ts";
import { requireUser } from "../../auth/middleware.ts";
import { createDraft, deleteDraft, getDraft, latestDraft, listDrafts, renameDraft, updateDraft } from "../../services/content/drafts.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Drafts of the generator grid (spec sections 4 and 7): every call is the signed-in user's own. */
export const draftsApi = router();
draftsApi.use("/user/drafts/*", requireUser);

draftsApi.post("/user/drafts/createDraft", valid("json", CreateDraftBody), async (c) => {
  return c.json({ draft: await createDraft(c.env, c.var.auth.user, c.req.valid("json")) }, 201);
});

draftsApi.post("/user/drafts/updateDraft", valid("json", UpdateDraftBody), async (c) => {
  return c.json({ draft: await updateDraft(c.env, c.var.auth.user, c.req.valid("json")) });
});

draftsApi.post("/user/drafts/renameDraft", valid("json", RenameDraftBody), async (c) => {
  const { draftId, newName } = c.req.valid("json");
  return c.json({ draft: await renameDraft(c.env, c.var.auth.user, draftId, newName) });
});

draftsApi.get("/user/drafts/latestDraft", async (c) => {
  return c.json({ draft: await latestDraft(c.env, c.var.auth.user) });
});

draftsApi.get("/user/drafts/getDraft/:id", valid("param", DraftIdParam), async (c) => {
  return c.json({ draft: await getDraft(c.env, c.var.auth.user, c.req.valid("param").id) });
});

draftsApi.get("/user/drafts/getDrafts", valid("query", DraftsPageQuery), async (c) => {
  return c.json(await listDrafts(c.env, c.var.auth.user, c.req.valid("query").lastDraftId));
});

draftsApi.delete("/user/drafts/deleteDraft/:id", valid("param", DraftIdParam), async (c) => {
  return c.json(await deleteDraft(c.env, c.var.auth.user, c.req.valid("param").id));
});
