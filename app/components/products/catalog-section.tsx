import { Link } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { addItemsError, type Catalog } from "../../../contracts/pinterest/catalogs.ts";
import { addAllItems, createCatalog, fetchCatalogs, listingsAsItems } from "../../lib/catalogs/api.ts";
import type { Chosen } from "../../lib/products/chosen-products.ts";

const NEW_CATALOG = "new";

/**
 * /products' 'Create a Pinterest Catalog' section (spec section 2): the chosen
 * products go into a new catalog or one the user has, to be published on
 * /pinterest-catalogs.
 */
export function CatalogSection({ chosen }: { chosen: Chosen }) {
  const [catalogs, setCatalogs] = useState<Catalog[] | null>(null);
  const [target, setTarget] = useState(NEW_CATALOG);
  const [name, setName] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ catalog: Catalog; added: number; skipped: number } | null>(null);

  useEffect(() => {
    let current = true;
    fetchCatalogs(null).then(
      (state) => current && setCatalogs(state.allCatalogs),
      () => current && setCatalogs([]),
    );
    return () => {
      current = false;
    };
  }, []);

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
    try {
      const catalog = target === NEW_CATALOG ? await createCatalog({ name: name.trim() }) : catalogs?.find((candidate) => candidate.id === target);
      if (!catalog) throw new Error("that catalog no longer exists.");
      if (target === NEW_CATALOG) {
        setCatalogs((current) => [catalog, ...(current ?? [])]);
        setTarget(catalog.id);
        setName("");
      }
      const added = await addAllItems(catalog.id, items);
      setDone({ catalog, added, skipped });
    } catch (failure) {
      setError(addItemsError(failure instanceof Error ? failure.message : String(failure)));
    } finally {
      setSaving(false);
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
            {(catalogs ?? []).map((catalog) => (
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
            <Link to={`/pinterest-catalogs?catalog=${encodeURIComponent(done.catalog.id)}`}>Open the catalog</Link>
          </p>
        ) : null}
      </div>
    </section>
  );
}
