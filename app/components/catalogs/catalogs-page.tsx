import * as Dialog from "@radix-ui/react-dialog";
import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  addItemsError,
  CATALOG_AVAILABILITIES,
  CATALOG_CONDITIONS,
  updateCatalogError,
  type Catalog,
  type CatalogAvailability,
  type CatalogCondition,
  type CatalogItem,
  type CatalogsState,
  type CatalogStatus,
} from "../../../contracts/pinterest/catalogs.ts";
import type { AuthorizedPinterestProfile } from "../../../contracts/pinterest/pinterest-connection.ts";
import { ApiError } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import {
  addAllItems,
  createCatalog,
  deleteCatalog,
  deleteCatalogItem,
  deleteCatalogItemImage,
  fetchCatalogs,
  fetchCatalogStatus,
  listingsAsItems,
  publishCatalog,
  updateCatalog,
  updateCatalogItem,
} from "../../lib/catalogs/api.ts";
import { formatPrice } from "../../lib/products/chosen-products.ts";
import { csvFileProblem, parseProductCsv } from "../../lib/products/csv-products.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { DialogActions } from "../dialog-actions.tsx";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { ProfileSelect } from "../scheduling/profile-select.tsx";
import { catalogStatusKey, catalogsKey } from "./keys.ts";

/** How often the page asks again while Pinterest processes the feed, and for how long (90 times). */
const STATUS_POLL_MS = 2000;
const STATUS_POLL_FOR_MS = 90 * STATUS_POLL_MS;
const CATALOG_PARAM = "catalog";

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** /pinterest-catalogs (spec sections 2, 3, 4; issue 18): logged out, the sign-in prompt. */
export function CatalogsPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Pinterest catalogs" action="build Pinterest catalogs" />;
  }
  return <Catalogs profiles={user.authorizedPinterestProfiles ?? []} />;
}

function remember(catalogId: string | null) {
  const url = new URL(window.location.href);
  if (catalogId) url.searchParams.set(CATALOG_PARAM, catalogId);
  else url.searchParams.delete(CATALOG_PARAM);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

function Catalogs({ profiles }: { profiles: AuthorizedPinterestProfile[] }) {
  const toast = useToast();
  const cache = useApiCache();
  /** The catalog asked for: at first the one the address names; null opens the newest. */
  const [openId, setOpenId] = useState<string | null>(() =>
    typeof window === "undefined" ? null : new URL(window.location.href).searchParams.get(CATALOG_PARAM),
  );
  const stateKey = catalogsKey(openId);
  const query = useApiQuery<CatalogsState>(
    stateKey,
    async () => {
      try {
        return await fetchCatalogs(openId);
      } catch (error) {
        // The catalog in the address is gone (deleted elsewhere): open the newest instead.
        if (!(error instanceof ApiError && error.status === 404) || openId === null) throw error;
        return fetchCatalogs(null);
      }
    },
    {
      // While another catalog is read, the one shown stays on the page.
      placeholderData: (previous) => previous,
      // Not again when the tab is back in view: after its active catalog was removed, the catalog asked for
      // would be read as gone and the newest opened in its place (spec section 4 clears it instead).
      refetchOnWindowFocus: false,
    },
  );
  const state = query.data ?? null;
  const loadError = query.error && !query.isFetching ? message(query.error) : null;
  const [publishing, setPublishing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CatalogItem | null>(null);
  const [removingCatalog, setRemovingCatalog] = useState<Catalog | null>(null);
  const active = state?.activeCatalog ?? null;
  const activeId = active?.id ?? null;

  /** Opens a catalog (null: the newest), read afresh: the catalogs may have changed since it was last shown. */
  function open(catalogId: string | null) {
    void cache.refresh(catalogsKey(catalogId));
    setOpenId(catalogId);
  }

  // The address names the open catalog, so that reloading the page opens it again.
  const settled = state !== null && !query.isPlaceholderData;
  useEffect(() => {
    if (settled) remember(activeId);
  }, [settled, activeId]);

  /** Until when Pinterest is asked again while it processes: from when the catalog was opened or published. */
  const pollUntil = useRef<{ catalogId: string | null; until: number }>({ catalogId: null, until: 0 });
  const statusQuery = useApiQuery<CatalogStatus>(catalogStatusKey(activeId ?? ""), () => fetchCatalogStatus(activeId ?? ""), {
    enabled: activeId !== null,
    refetchInterval: (status) => {
      if (status.state.status === "error" || status.state.data?.processing?.status !== "processing") return false;
      if (pollUntil.current.catalogId !== activeId) pollUntil.current = { catalogId: activeId, until: Date.now() + STATUS_POLL_FOR_MS };
      return Date.now() < pollUntil.current.until ? STATUS_POLL_MS : false;
    },
    // As before, also while the tab is hidden: the 3 minutes are short, and the result is there on return.
    refetchIntervalInBackground: true,
  });
  /** Pinterest's view of the active catalog; none while it is read, or when it could not be. */
  const status = statusQuery.isError ? null : (statusQuery.data ?? null);

  /** Changes what is shown of the catalog asked for (nothing while it is still being read). */
  const change = (update: (current: CatalogsState) => CatalogsState) => cache.set<CatalogsState>(stateKey, (current) => (current ? update(current) : current));
  const replaceItem = (item: CatalogItem) =>
    change((current) => ({ ...current, catalogItems: current.catalogItems.map((candidate) => (candidate.id === item.id ? item : candidate)) }));
  const replaceCatalog = (catalog: Catalog) =>
    change((current) => ({
      ...current,
      allCatalogs: current.allCatalogs.map((candidate) => (candidate.id === catalog.id ? catalog : candidate)),
      activeCatalog: current.activeCatalog?.id === catalog.id ? catalog : current.activeCatalog,
    }));

  async function changeCatalog(input: { name?: string; pinterestUsername?: string }) {
    if (!active) return;
    try {
      replaceCatalog(await updateCatalog(active.id, input));
      toast({ title: "Catalog saved", kind: "success" });
    } catch (error) {
      toast({ title: updateCatalogError(message(error)), kind: "error" });
    }
  }

  async function confirmRemoveCatalog(target: Catalog) {
    try {
      const { allCatalogs } = await deleteCatalog(target.id);
      // Removing the active catalog clears the active catalog (spec section 4); the address follows.
      change((current) => ({
        allCatalogs,
        activeCatalog: current.activeCatalog?.id === target.id ? null : current.activeCatalog,
        catalogItems: current.activeCatalog?.id === target.id ? [] : current.catalogItems,
      }));
      toast({ title: `${target.name} removed`, kind: "info" });
    } catch (error) {
      toast({ title: updateCatalogError(message(error)), kind: "error" });
    } finally {
      setRemovingCatalog(null);
    }
  }

  async function publish() {
    if (!active) return;
    setPublishing(true);
    try {
      const published = await publishCatalog(active.id);
      replaceCatalog(published.catalog);
      // Pinterest is processing it now: asked again, for as long as at first.
      pollUntil.current = { catalogId: active.id, until: Date.now() + STATUS_POLL_FOR_MS };
      cache.set<CatalogStatus>(catalogStatusKey(active.id), () => published);
      toast({ title: "Catalog sent to Pinterest", description: "Pinterest is processing it now.", kind: "success" });
    } catch (error) {
      toast({ title: "Unable to publish the catalog", description: message(error), kind: "error" });
      void cache.refresh(stateKey);
    } finally {
      setPublishing(false);
    }
  }

  async function addCsv(file: File | null | undefined) {
    if (!active) return;
    const problem = csvFileProblem(file);
    if (problem || !file) {
      toast({ title: addItemsError(problem ?? "Please select a CSV file to upload."), kind: "error" });
      return;
    }
    setAdding(true);
    try {
      const parsed = parseProductCsv(await file.text());
      if (parsed.failure) throw new Error(parsed.failure);
      const { items, skipped } = listingsAsItems(parsed.products);
      if (items.length === 0) throw new Error("the file has no rows that can become items.");
      const added = await addAllItems(active.id, items);
      await cache.refresh(stateKey);
      toast({
        title: `${added} ${added === 1 ? "item" : "items"} added to ${active.name}`,
        description: skipped > 0 ? `${skipped} rows were left out: they have no title or no product link.` : undefined,
        kind: "success",
      });
    } catch (error) {
      toast({ title: addItemsError(message(error)), kind: "error" });
    } finally {
      setAdding(false);
    }
  }

  async function removeImage(item: CatalogItem, image: string) {
    // The picture leaves the page at once; a failed deletion puts it back (spec section 4).
    replaceItem({ ...item, images: item.images.filter((candidate) => candidate !== image) });
    try {
      replaceItem(await deleteCatalogItemImage(item.id, image));
    } catch (error) {
      change((current) => ({
        ...current,
        catalogItems: current.catalogItems.map((candidate) => (candidate.id === item.id ? { ...candidate, images: item.images } : candidate)),
      }));
      toast({ title: "Unable to remove the picture", description: message(error), kind: "error" });
    }
  }

  async function removeItem(item: CatalogItem) {
    try {
      await deleteCatalogItem(item.id);
      change((current) => ({ ...current, catalogItems: current.catalogItems.filter((candidate) => candidate.id !== item.id) }));
      if (active) replaceCatalog({ ...active, itemCount: Math.max(0, active.itemCount - 1), changedSincePublish: true });
      toast({ title: `${item.title} removed from the catalog`, kind: "info" });
    } catch (error) {
      toast({ title: updateCatalogError(message(error)), kind: "error" });
    }
  }

  if (loadError && !state) {
    return (
      <main className="page catalogs-page">
        <h1>Pinterest catalogs</h1>
        <p className="notice notice--error" role="alert">
          Unable to load your catalogs: {loadError}{" "}
          <button type="button" className="link-button" onClick={() => open(null)}>
            Try again
          </button>
        </p>
      </main>
    );
  }

  return (
    <main className="page catalogs-page">
      <header className="catalogs-page__header">
        <h1>Pinterest catalogs</h1>
        <p className="muted">
          Group your products into catalogs and publish each one to Pinterest as a product feed: Pinterest turns its items into shoppable product pins.
        </p>
      </header>

      {state === null ? (
        <p className="loading" aria-busy="true">
          <Spinner label="Loading your catalogs" /> Loading your catalogs…
        </p>
      ) : (
        <>
          <section className="catalogs-section" aria-labelledby="catalogs-title">
            <h2 id="catalogs-title">Your catalogs</h2>
            <div className="catalogs-toolbar">
              {state.allCatalogs.length > 0 ? (
                <div className="field">
                  <label className="field__label" htmlFor="catalog-choice">
                    Catalog
                  </label>
                  <select
                    id="catalog-choice"
                    className="field__input field__select"
                    value={activeId ?? ""}
                    onChange={(event) => open(event.target.value || null)}
                  >
                    {activeId === null ? <option value="">Choose a catalog</option> : null}
                    {state.allCatalogs.map((catalog) => (
                      <option key={catalog.id} value={catalog.id}>
                        {catalog.name} ({catalog.itemCount} {catalog.itemCount === 1 ? "item" : "items"})
                      </option>
                    ))}
                  </select>
                </div>
              ) : (
                <p className="muted">You have no catalogs yet. Name your first one to start.</p>
              )}
              <NewCatalogForm
                profiles={profiles}
                onCreated={(catalog) => {
                  toast({ title: `${catalog.name} created`, kind: "success" });
                  open(catalog.id);
                }}
              />
            </div>
          </section>

          {active ? (
            <>
              <section className="catalogs-section" aria-labelledby="catalog-settings-title">
                <h2 id="catalog-settings-title">{active.name}</h2>
                <CatalogSettings
                  catalog={active}
                  profiles={profiles}
                  onChange={(input) => void changeCatalog(input)}
                  onRemove={() => setRemovingCatalog(active)}
                />
              </section>

              <section className="catalogs-section" aria-labelledby="catalog-publish-title">
                <h2 id="catalog-publish-title">Publish to Pinterest</h2>
                <PublishPanel
                  catalog={active}
                  status={status}
                  publishing={publishing}
                  hasProfile={Boolean(active.pinterestUsername)}
                  onPublish={() => void publish()}
                />
              </section>

              <section className="catalogs-section" aria-labelledby="catalog-items-title">
                <h2 id="catalog-items-title">Items</h2>
                <div className="catalogs-add">
                  <p className="muted small">
                    Add products from your shops on the <Link to="/products">Products page</Link> (choose them, then "Add to catalog"), or from a CSV file with
                    the columns title, description, price, currency, url, images and categories.
                  </p>
                  <label className="button button--ghost catalogs-add__file">
                    {adding ? <Spinner label="Adding items" /> : null} Add items from a CSV file
                    <input
                      type="file"
                      accept=".csv,text/csv"
                      className="visually-hidden"
                      disabled={adding}
                      onChange={(event) => void addCsv(event.target.files?.[0])}
                    />
                  </label>
                </div>
                {state.catalogItems.length === 0 ? (
                  <p className="muted">This catalog has no items yet.</p>
                ) : (
                  <ul className="catalog-items" aria-label={`Items of ${active.name}`}>
                    {state.catalogItems.map((item) => (
                      <CatalogItemCard
                        key={item.id}
                        item={item}
                        onRemoveImage={(image) => void removeImage(item, image)}
                        onEdit={() => setEditing(item)}
                        onRemove={() => void removeItem(item)}
                      />
                    ))}
                  </ul>
                )}
              </section>
            </>
          ) : state.allCatalogs.length > 0 ? (
            <p className="muted">Choose a catalog to see its items.</p>
          ) : null}
        </>
      )}

      <EditItemDialog
        item={editing}
        onClose={() => setEditing(null)}
        onSaved={(item) => {
          replaceItem(item);
          if (active) replaceCatalog({ ...active, changedSincePublish: true });
          setEditing(null);
          toast({ title: "Item saved", kind: "success" });
        }}
      />

      <Dialog.Root open={removingCatalog !== null} onOpenChange={(open) => !open && setRemovingCatalog(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Remove {removingCatalog?.name}?</Dialog.Title>
            <Dialog.Description className="dialog__text">
              Its items are deleted and its feed address stops answering, so Pinterest stops updating the products from it.
            </Dialog.Description>
            <DialogActions>
              <button type="button" className="button button--danger" onClick={() => removingCatalog && void confirmRemoveCatalog(removingCatalog)}>
                Remove catalog
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </main>
  );
}

function NewCatalogForm({ profiles, onCreated }: { profiles: AuthorizedPinterestProfile[]; onCreated(catalog: Catalog): void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const catalog = await createCatalog({ name });
      setName("");
      onCreated(catalog);
    } catch (failure) {
      setError(updateCatalogError(message(failure)));
    } finally {
      setSaving(false);
    }
  }
  return (
    <form className="catalogs-new" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label className="field__label" htmlFor="new-catalog-name">
          New catalog name
        </label>
        <input id="new-catalog-name" className="field__input" value={name} maxLength={100} required onChange={(event) => setName(event.target.value)} />
      </div>
      <button type="submit" className="button button--primary" disabled={saving || !name.trim()}>
        Create catalog
      </button>
      {profiles.length === 0 ? (
        <p className="muted small">
          To publish a catalog, connect a Pinterest business profile on the <Link to="/scheduling">scheduling page</Link>.
        </p>
      ) : null}
      {error ? (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function CatalogSettings({
  catalog,
  profiles,
  onChange,
  onRemove,
}: {
  catalog: Catalog;
  profiles: AuthorizedPinterestProfile[];
  onChange(input: { name?: string; pinterestUsername?: string }): void;
  onRemove(): void;
}) {
  // The name typed starts again from the catalog's own when another catalog opens or its name changes (during render).
  const [name, setName] = useState(catalog.name);
  const [named, setNamed] = useState({ id: catalog.id, name: catalog.name });
  if (named.id !== catalog.id || named.name !== catalog.name) {
    setNamed({ id: catalog.id, name: catalog.name });
    setName(catalog.name);
  }
  return (
    <div className="catalog-settings">
      <form
        className="catalog-settings__row"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() && name.trim() !== catalog.name) onChange({ name: name.trim() });
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor="catalog-name">
            Name
          </label>
          <input id="catalog-name" className="field__input" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </div>
        <button type="submit" className="button button--ghost" disabled={!name.trim() || name.trim() === catalog.name}>
          Rename
        </button>
      </form>
      <div className="field">
        <label className="field__label" htmlFor="catalog-profile">
          Publishes to
        </label>
        <ProfileSelect
          id="catalog-profile"
          profiles={profiles}
          value={catalog.pinterestUsername ?? ""}
          onChange={(username) => onChange({ pinterestUsername: username })}
          noneLabel="No Pinterest profile chosen"
        />
      </div>
      <div className="field catalog-feed">
        <label className="field__label" htmlFor="catalog-feed-url">
          Feed address (Pinterest reads the catalog here)
        </label>
        <div className="catalog-feed__row">
          <input id="catalog-feed-url" className="field__input" value={catalog.feedUrl} readOnly onFocus={(event) => event.currentTarget.select()} />
          <CopyButton text={catalog.feedUrl} />
        </div>
      </div>
      <button type="button" className="button button--ghost catalog-settings__remove" onClick={onRemove}>
        Remove catalog
      </button>
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className="button button--ghost"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => toast({ title: "Feed address copied", kind: "success" }),
          () => toast({ title: "Your browser did not let us copy. Select the address and copy it yourself.", kind: "error" }),
        )
      }
    >
      Copy address
    </button>
  );
}

function publishedWhen(epoch: number): string {
  return new Date(epoch).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function PublishPanel({
  catalog,
  status,
  publishing,
  hasProfile,
  onPublish,
}: {
  catalog: Catalog;
  status: CatalogStatus | null;
  publishing: boolean;
  hasProfile: boolean;
  onPublish(): void;
}) {
  const processing = status?.processing ?? null;
  const refused = status?.refusedItems ?? [];
  return (
    <div className="catalog-publish">
      <div className="catalog-publish__bar">
        <p className="catalog-publish__state">
          {catalog.publishedAt
            ? `Last published ${publishedWhen(catalog.publishedAt)}: ${catalog.publishedItemCount ?? 0} ${catalog.publishedItemCount === 1 ? "item" : "items"} sent${catalog.leftOutItemCount ? `, ${catalog.leftOutItemCount} left out` : ""}.${catalog.changedSincePublish ? " The catalog changed since: publish again to send the changes." : ""}`
            : "Not published yet."}
        </p>
        <button type="button" className="button button--primary" onClick={onPublish} disabled={publishing || !hasProfile || catalog.itemCount === 0}>
          {publishing ? <Spinner label="Publishing" /> : null} {catalog.publishedAt ? "Publish again" : "Publish to Pinterest"}
        </button>
      </div>
      {!hasProfile ? <p className="muted small">Choose the Pinterest profile this catalog publishes to first.</p> : null}
      {catalog.lastError ? (
        <p className="notice notice--error" role="alert">
          The last publish failed: {catalog.lastError}
        </p>
      ) : null}

      <div className="catalog-processing" role="status" aria-live="polite">
        {status?.processingError ? <p className="notice notice--error">We could not ask Pinterest how the catalog is doing: {status.processingError}</p> : null}
        {processing?.status === "processing" ? (
          <p className="loading">
            <Spinner label="Pinterest is processing the catalog" /> Pinterest is processing your catalog…
          </p>
        ) : processing?.status === "completed" ? (
          <p className="notice notice--success">
            Pinterest processed your catalog {publishedWhen(processing.createdAt)}: it accepted {processing.itemsAccepted ?? 0} of {processing.itemsInFile ?? 0}{" "}
            {processing.itemsInFile === 1 ? "product" : "products"}.
          </p>
        ) : processing?.status === "failed" ? (
          <p className="notice notice--error">Pinterest could not process your catalog {publishedWhen(processing.createdAt)}.</p>
        ) : null}
        {processing && processing.feedErrors.length > 0 ? (
          <ul className="catalog-issues" aria-label="Problems with the whole catalog">
            {processing.feedErrors.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        ) : null}
        {processing && processing.itemIssues.length > 0 ? (
          <>
            <h3 className="catalog-issues__title">What Pinterest said about items</h3>
            <ul className="catalog-issues" aria-label="What Pinterest said about items">
              {processing.itemIssues.map((issue, index) => (
                <li key={`${issue.itemId}-${index}`} className={issue.severity === "error" ? "catalog-issue catalog-issue--error" : "catalog-issue"}>
                  <strong>{issue.title ?? "An item"}</strong>: {issue.message}
                  {issue.severity === "error" ? " Pinterest left it out." : ""}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>

      {refused.length > 0 ? (
        <div className="catalog-refused">
          <h3>Not sent to Pinterest ({refused.length})</h3>
          <p className="muted small">Pinterest would refuse these items, so they are left out of the feed until they are fixed:</p>
          <ul className="catalog-issues">
            {refused.map((entry) => (
              <li key={entry.id}>
                <strong>{entry.title || "An item without a title"}</strong>:{" "}
                {entry.problems
                  .filter((problem) => problem.severity === "refused")
                  .map((problem) => problem.message)
                  .join(" ")}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function CatalogItemCard({
  item,
  onRemoveImage,
  onEdit,
  onRemove,
}: {
  item: CatalogItem;
  onRemoveImage(image: string): void;
  onEdit(): void;
  onRemove(): void;
}) {
  const locale = typeof navigator === "undefined" ? undefined : navigator.language;
  const refused = item.problems.filter((problem) => problem.severity === "refused");
  const warnings = item.problems.filter((problem) => problem.severity === "warning");
  return (
    <li className="catalog-item">
      <ul className="catalog-item__images" aria-label={`Pictures of ${item.title}`}>
        {item.images.length === 0 ? <li className="muted small">No pictures</li> : null}
        {item.images.map((image, index) => (
          <li key={image} className="catalog-item__image">
            {/* biome-ignore lint/a11y/noRedundantAlt: the number tells several pictures apart ("Picture 2"): the word is part of that name, not a description of the element. */}
            <img src={image} alt={`${item.title}, picture ${index + 1}`} loading="lazy" width={96} height={96} />
            <button
              type="button"
              className="catalog-item__remove-image"
              aria-label={`Remove picture ${index + 1} of ${item.title}`}
              onClick={() => onRemoveImage(image)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <h3 className="catalog-item__title">{item.title || "Untitled item"}</h3>
      <p className="catalog-item__facts">
        {item.price ? formatPrice(item.price, item.currency, locale) : "No price"} · {item.availability}
        {item.brand ? ` · ${item.brand}` : ""}
      </p>
      {refused.length > 0 ? (
        <ul className="catalog-item__problems catalog-item__problems--refused" aria-label={`Why Pinterest would refuse ${item.title}`}>
          {refused.map((problem) => (
            <li key={problem.message}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
      {warnings.length > 0 ? (
        <ul className="catalog-item__problems" aria-label={`Notes on ${item.title}`}>
          {warnings.map((problem) => (
            <li key={problem.message}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
      <div className="catalog-item__actions">
        <button type="button" className="button button--ghost" onClick={onEdit} aria-label={`Edit ${item.title}`}>
          Edit
        </button>
        <button type="button" className="button button--ghost" onClick={onRemove} aria-label={`Delete ${item.title}`}>
          Delete
        </button>
      </div>
    </li>
  );
}

const EMPTY_ITEM_FORM = {
  title: "",
  description: "",
  link: "",
  price: "",
  currency: "",
  availability: "in stock" as CatalogAvailability,
  brand: "",
  condition: "" as CatalogCondition,
  categories: "",
};

function itemForm(item: CatalogItem): typeof EMPTY_ITEM_FORM {
  return {
    title: item.title,
    description: item.description,
    link: item.link,
    price: item.price,
    currency: item.currency,
    availability: item.availability,
    brand: item.brand,
    condition: item.condition,
    categories: item.categories.join(", "),
  };
}

function EditItemDialog({ item, onClose, onSaved }: { item: CatalogItem | null; onClose(): void; onSaved(item: CatalogItem): void }) {
  const [form, setForm] = useState(() => (item ? itemForm(item) : EMPTY_ITEM_FORM));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Another item opened: the form starts from it, without the last one's error (during render; closing keeps the form).
  const [shown, setShown] = useState(item);
  if (shown !== item) {
    setShown(item);
    if (item) {
      setError(null);
      setForm(itemForm(item));
    }
  }
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [field]: event.target.value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!item) return;
    setSaving(true);
    setError(null);
    try {
      onSaved(
        await updateCatalogItem(item.id, {
          ...form,
          categories: form.categories
            .split(",")
            .map((part) => part.trim())
            .filter(Boolean),
        }),
      );
    } catch (failure) {
      setError(updateCatalogError(message(failure)));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog.Root open={item !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog catalog-edit">
          <Dialog.Title className="dialog__title">Edit item</Dialog.Title>
          <Dialog.Description className="dialog__text">Changes reach Pinterest the next time you publish the catalog.</Dialog.Description>
          <form onSubmit={(event) => void save(event)}>
            <div className="field">
              <label className="field__label" htmlFor="item-title">
                Title
              </label>
              <input id="item-title" className="field__input" value={form.title} onChange={set("title")} required />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="item-description">
                Description
              </label>
              <textarea id="item-description" className="field__input" rows={4} value={form.description} onChange={set("description")} />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="item-link">
                Product link
              </label>
              <input id="item-link" className="field__input" type="url" value={form.link} onChange={set("link")} required />
            </div>
            <div className="catalog-edit__row">
              <div className="field">
                <label className="field__label" htmlFor="item-price">
                  Price
                </label>
                <input id="item-price" className="field__input" inputMode="decimal" value={form.price} onChange={set("price")} />
              </div>
              <div className="field">
                <label className="field__label" htmlFor="item-currency">
                  Currency
                </label>
                <input id="item-currency" className="field__input" maxLength={3} value={form.currency} onChange={set("currency")} />
              </div>
            </div>
            <div className="catalog-edit__row">
              <div className="field">
                <label className="field__label" htmlFor="item-availability">
                  Availability
                </label>
                <select id="item-availability" className="field__input field__select" value={form.availability} onChange={set("availability")}>
                  {CATALOG_AVAILABILITIES.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="field__label" htmlFor="item-condition">
                  Condition
                </label>
                <select id="item-condition" className="field__input field__select" value={form.condition} onChange={set("condition")}>
                  <option value="">Not said</option>
                  {CATALOG_CONDITIONS.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="field">
              <label className="field__label" htmlFor="item-brand">
                Brand
              </label>
              <input id="item-brand" className="field__input" value={form.brand} onChange={set("brand")} />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="item-categories">
                Categories (separated by commas)
              </label>
              <input id="item-categories" className="field__input" value={form.categories} onChange={set("categories")} />
            </div>
            {error ? (
              <p className="notice notice--error" role="alert">
                {error}
              </p>
            ) : null}
            <DialogActions>
              <button type="submit" className="button button--primary" disabled={saving}>
                Save item
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
