/**
 * The gallery order of standard templates (decision 053). Templates have one
 * order; a category shows its templates in that order. Reordering a category
 * puts its templates, in their new order, into the places they held in the
 * whole order, so other categories' templates keep their places.
 *
 * `all`: every standard template id, in the current order; `category`: the
 * category's ids in their new order (each of them in `all`). Answers the new
 * whole order.
 */
export function reorderWithinCategory(all: readonly string[], category: readonly string[]): string[] {
  const members = new Set(category);
  const queue = [...category];
  return all.map((id) => (members.has(id) ? queue.shift()! : id));
}

/** Whether `proposed` holds exactly the ids of `current` (same set, no repeats, none missing). */
export function isSameSet(current: readonly string[], proposed: readonly string[]): boolean {
  if (current.length !== proposed.length) return false;
  const wanted = new Set(current);
  const seen = new Set<string>();
  for (const id of proposed) {
    if (!wanted.has(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}
