import { Link } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { addItemsError, type Catalog, type CatalogsState } from "../../../contracts/pinterest/catalogs.ts";
import { addAllItems, createCatalog, fetchCatalogs, listingsAsItems, unpublishable } from "../../lib/catalogs/api.ts";
import type { Chosen } from "../../lib/products/chosen-products.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { CATALOGS_KEY, catalogsKey } from "../catalogs/keys.ts";

const NEW_CATALOG = "new";

/**
 * /products' 'Create a Pinterest Catalog' section (spec section 2): the chosen
 * products go into a new catalog or one the user has, to be published on
 * /pinterest-catalogs. The catalogs are the same read as that page's first one.
 */
export function CatalogSection({ chosen }: { chosen: Chosen }) {
  const query = useApiQuery<CatalogsState>(catalogsKey(null), () => fetchCatalogs(null));
  const cache = useApiCache();
  // Until the catalogs are read (or when they cannot be), only a new catalog is offered.
  const catalogs = query.data?.allCatalogs ?? [];
  const [target, setTarget] = useState(NEW_CATALOG);
  const [name, setName] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ catalog: Catalog; added: number; skipped: number; blocked: number } | null>(null);
  // What Pinterest would refuse among the chosen products, said now rather than on the catalog page later.
  const currency = catalogs.find((catalog) => catalog.id === target)?.currency || "USD";
  const blocked = chosen.size > 0 ? unpublishable(listingsAsItems([...chosen.values()].map((item) => item.listing)).items, currency) : [];

  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    const { items, skipped } = listingsAsItems([...chosen.values()].map((item) => item.listing));
    if (items.length === 0) {
      setError(addItemsError("none of the chosen products has a title and a product link."));
      return;
    }
    setSaving(true);
    let changed = false;
    try {
      const catalog = target === NEW_CATALOG ? await createCatalog({ name: name.trim() }) : catalogs.find((candidate) => candidate.id === target);
      if (!catalog) throw new Error("that catalog no longer exists.");
      changed = true;
      if (target === NEW_CATALOG) {
        // The new catalog is offered at once, chosen, before its items are added.
        cache.set<CatalogsState>(catalogsKey(null), (current) => current && { ...current, allCatalogs: [catalog, ...current.allCatalogs] });
        setTarget(catalog.id);
        setName("");
      }
      const added = await addAllItems(catalog.id, items);
      setDone({ catalog, added, skipped, blocked: blocked.length });
    } catch (failure) {
      setError(addItemsError(failure instanceof Error ? failure.message : String(failure)));
    } finally {
      setSaving(false);
      // A catalog or its items changed (even when adding stopped half way): every catalog read is stale.
      if (changed) void cache.refresh(CATALOGS_KEY);
    }
  }

  return (
    <section className="products-section" aria-labelledby="catalog-section-title">
      <h2 id="catalog-section-title">Create a Pinterest Catalog</h2>
      <p className="muted">
        Put the chosen products in a catalog, then publish it to Pinterest from the catalogs page: Pinterest turns them into shoppable product pins.
      </p>
      <form className="products-catalog" onSubmit={(event) => void add(event)}>
        <div className="field">
          <label className="field__label" htmlFor="catalog-target">
            Add to
          </label>
          <select id="catalog-target" className="field__input field__select" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value={NEW_CATALOG}>A new catalog</option>
            {catalogs.map((catalog) => (
              <option key={catalog.id} value={catalog.id}>
                {catalog.name}
              </option>
            ))}
          </select>
        </div>
        {target === NEW_CATALOG ? (
          <div className="field">
            <label className="field__label" htmlFor="catalog-new-name">
              Catalog name
            </label>
            <input id="catalog-new-name" className="field__input" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
          </div>
        ) : null}
        {blocked.length > 0 ? (
          <div className="notice notice--info products-catalog__blocked" role="status">
            <p>
              {blocked.length === 1 ? "1 chosen product" : `${blocked.length} chosen products`} cannot be published to Pinterest as{" "}
              {blocked.length === 1 ? "it stands" : "they stand"}; {blocked.length === 1 ? "it goes" : "they go"} into the catalog, to be fixed there:
            </p>
            <ul>
              {blocked.slice(0, 10).map((item, index) => (
                <li key={index}>
                  <strong>{item.title}</strong>: {item.reason}
                </li>
              ))}
              {blocked.length > 10 ? <li>and {blocked.length - 10} more.</li> : null}
            </ul>
          </div>
        ) : null}
        <button type="submit" className="button button--primary" disabled={saving || chosen.size === 0 || (target === NEW_CATALOG && !name.trim())}>
          {chosen.size === 0 ? "Choose products first" : `Add ${chosen.size} ${chosen.size === 1 ? "product" : "products"} to the catalog`}
        </button>
      </form>
      <div aria-live="polite">
        {error ? (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        ) : null}
        {done ? (
          <p className="notice notice--success">
            {done.added} {done.added === 1 ? "product" : "products"} added to {done.catalog.name}
            {done.skipped > 0 ? ` (${done.skipped} left out: no title or no product link)` : ""}.{" "}
            {done.blocked > 0 ? `${done.blocked === 1 ? "One needs" : `${done.blocked} need`} fixing before the catalog is published. ` : ""}
            <Link to={`/pinterest-catalogs?catalog=${encodeURIComponent(done.catalog.id)}`}>Open the catalog</Link>
          </p>
        ) : null}
      </div>
    </section>
  );
}
