import type { AdminContent, ContentKind } from "../../../contracts/content/content.ts";
import { apiJson } from "../../lib/api-client.ts";

/** The admin's content calls (issue 17, decision 039); the server checks the admin role on each. */
export interface ContentDraft {
  kind: ContentKind;
  slug: string;
  title: string;
  description: string;
  body: string;
  coverImage: string;
  coverAlt: string;
  author: string;
}

export const listContent = () => apiJson<{ entries: AdminContent[] }>("/api/admin/content");
export const createContent = (draft: ContentDraft) => apiJson<{ entry: AdminContent }>("/api/admin/content", { json: draft });
export const updateContent = (id: string, draft: ContentDraft) =>
  apiJson<{ entry: AdminContent }>(`/api/admin/content/${encodeURIComponent(id)}`, { json: draft });
export const publishContent = (id: string, published: boolean) =>
  apiJson<{ entry: AdminContent }>(`/api/admin/content/${encodeURIComponent(id)}/publish`, { json: { published } });
export const deleteContent = (id: string) => apiJson<{ deleted: true }>(`/api/admin/content/${encodeURIComponent(id)}`, { method: "DELETE" });
export const previewContent = (body: string) => apiJson<{ html: string }>("/api/admin/content/preview", { json: { body } });

/** A title as an address: "Pin design: 7 rules" -> "pin-design-7-rules". */
export function slugify(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 120)
    .replace(/-+$/, "");
}
