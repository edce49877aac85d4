/**
 * The one escape for text put into HTML, XML or SVG (element text and quoted attribute values), shared by the
 * browser, the worker and the stand-ins: `&`, `<`, `>`, `"` and `'` become entities every one of those reads.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]);
}
