import * as Dialog from "@radix-ui/react-dialog";
import { useNavigate } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import {
  DEFAULT_PINS_PER_PRODUCT,
  PRODUCTS_PER_PAGE,
  SHOPIFY_PRODUCT_STATUSES,
  type ShopifyProductStatus,
  type ShopProfileView,
} from "../../../contracts/shops/shops.ts";
import { MAX_POSTS } from "../../../contracts/content/post.ts";
import { useAuth } from "../../lib/auth.tsx";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { chosenPinTotal, csvItemKey, generationPlan, setChosen, setPageChosen, shopItemKey, type ProductItem } from "../../lib/products/chosen-products.ts";
import { handProductsToGenerator } from "../../lib/products/handover.ts";
import { activateShop, fetchShopListings, fetchShops, pagesByLink, removeShop } from "../../lib/shops/api.ts";
import { shopifyOutcome } from "../../lib/shops/shopify-connect.ts";
import { SHOPIFY_CONNECTED_PARAM, SHOPIFY_ERROR_PARAM } from "../../../contracts/shops/shopify-shop.ts";
import { ListingsModel, pageCount, SEARCH_DEBOUNCE_MS } from "../../lib/shops/listings-model.ts";
import { DialogActions } from "../dialog-actions.tsx";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { CatalogSection } from "./catalog-section.tsx";
import { CsvUpload } from "./csv-upload-form.tsx";
import { ProductGrid, type Paging } from "./product-grid.tsx";
import { ShopConnectors, useShopConnect } from "./shop-connectors.tsx";
import { CSV_MARKS, useCsvProducts } from "./use-csv-products.ts";

/** /products (spec section 2): logged out, the sign-in prompt; logged in, 'Add your shop' and the products to make pins from. */
export function ProductsPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Products" action="turn your shop's products into pins" />;
  }
  return <Products />;
}

const STATUS_LABELS: Record<ShopifyProductStatus, string> = { all: "All", active: "Active", draft: "Draft", archived: "Archived" };
const CSV_VIEW = "csv";
/** The user's connected shops (GET /api/shops); activating or removing one answers the new list, put here. */
const SHOPS_KEY = ["shops"];

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function matches(item: { title: string; description: string; categories: string[] }, words: string[]): boolean {
  const text = `${item.title} ${item.description} ${item.categories.join(" ")}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

function Products() {
  const navigate = useNavigate();
  const locale = typeof navigator === "undefined" ? undefined : navigator.language;
  const shopsQuery = useApiQuery<ShopProfileView[]>(SHOPS_KEY, () => fetchShops());
  const cache = useApiCache();
  const shops = shopsQuery.data ?? null;
  // A failed fresh read keeps the shops already shown; only a first read that failed says so.
  const shopsError = !shops && shopsQuery.error && !shopsQuery.isFetching ? shopsQuery.error.message : null;
  /** The shop shown (its id), or the CSV file's products. */
  const [view, setView] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ShopProfileView | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [chosen, setChosenMap] = useState<ReadonlyMap<string, ProductItem>>(new Map());
  const [pins, setPins] = useState<ReadonlyMap<string, number>>(new Map());
  const connector = useShopConnect();
  const toast = useToast();

  const model = useMemo(() => new ListingsModel({ fetchShopListings }), []);
  useEffect(() => () => model.dispose(), [model]);
  const listings = useSyncExternalStore(model.subscribe, model.getState, model.getState);

  const csv = useCsvProducts(() => {
    // A new file's rows replace the earlier file's: its choices go with it.
    setChosenMap((current) => new Map([...current].filter(([key]) => !key.startsWith("csv:"))));
    setPins((current) => new Map([...current].filter(([key]) => !key.startsWith("csv:"))));
    setCsvPage(1);
    setView(CSV_VIEW);
  });
  const [csvSearchInput, setCsvSearchInput] = useState("");
  const csvSearch = useDebounced(csvSearchInput, SEARCH_DEBOUNCE_MS);
  const [csvPage, setCsvPage] = useState(1);
  // A new search of the file's rows starts again on page 1 (set during render, when the debounced search changes).
  const [pagedSearch, setPagedSearch] = useState(csvSearch);
  if (pagedSearch !== csvSearch) {
    setPagedSearch(csvSearch);
    setCsvPage(1);
  }

  const shop = view && view !== CSV_VIEW ? (shops?.find((candidate) => candidate.id === view) ?? null) : null;

  function showShop(next: ShopProfileView | null) {
    setView(next?.id ?? null);
    model.selectShop(next && next.status === "ok" ? next : null);
  }

  // Back from a provider's connection page: say how it went, once, and clean the address.
  useEffect(() => {
    const url = new URL(window.location.href);
    // WooCommerce says shopConnected / shopError, Etsy etsyConnected / etsyError, Shopify shopifyConnected / shopifyError.
    const shopify = shopifyOutcome(url.search);
    const connected = url.searchParams.get("shopConnected") ?? url.searchParams.get("etsyConnected") ?? shopify.connected;
    const failed = url.searchParams.get("shopError") ?? url.searchParams.get("etsyError") ?? shopify.error;
    if (connected === null && failed === null) return;
    if (connected !== null) toast({ title: `${connected || "Your shop"} is connected`, kind: "success" });
    if (failed !== null) toast({ title: "Unable to connect your shop", description: failed, kind: "error" });
    for (const name of ["shopConnected", "shopError", "etsyConnected", "etsyError", SHOPIFY_CONNECTED_PARAM, SHOPIFY_ERROR_PARAM])
      url.searchParams.delete(name);
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [toast]);

  // Once the shops are known, the active one is shown: the listings model (outside React) starts reading it.
  // Once only: a later answer (a shop activated or removed, a fresh read) does not move the user's view.
  const opened = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival: showShop changes with every render, and later answers must not run it again.
  useEffect(() => {
    if (!shops || opened.current) return;
    opened.current = true;
    const active = shops.find((candidate) => candidate.isActive) ?? null;
    if (active) showShop(active);
  }, [shops]);

  async function choose(value: string) {
    setActionError(null);
    if (value === CSV_VIEW) {
      setView(CSV_VIEW);
      return;
    }
    const next = shops?.find((candidate) => candidate.id === value) ?? null;
    showShop(next);
    if (!next) return;
    try {
      const found = await activateShop(next.id);
      cache.set<ShopProfileView[]>(SHOPS_KEY, () => found);
    } catch (error) {
      setActionError(error instanceof Error ? error.message : String(error));
    }
  }

  async function confirmRemove(target: ShopProfileView) {
    setActionError(null);
    try {
      const { authorizedShops: left, message } = await removeShop(target.id);
      cache.set<ShopProfileView[]>(SHOPS_KEY, () => left);
      if (message) toast({ title: `${target.shopName} removed`, description: message, kind: "info" });
      const prefix = shopItemKey(target.id, "");
      setChosenMap((current) => new Map([...current].filter(([key]) => !key.startsWith(prefix))));
      if (view === target.id) showShop(left.find((candidate) => candidate.isActive) ?? null);
    } catch (error) {
      setActionError(error instanceof Error ? error.message : String(error));
    } finally {
      setRemoving(null);
    }
  }

  // The CSV file's products, searched (every word must match) and paged.
  const csvState = csv.state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: csv.products is a ref whose rows grow as batches arrive: csv.state.count and phase say when they changed.
  const csvFiltered = useMemo(() => {
    const words = csvSearch.toLowerCase().split(/\s+/).filter(Boolean);
    const all = csv.products.current;
    return words.length === 0 ? all : all.filter((product) => matches(product, words));
  }, [csvSearch, csvState.count, csvState.phase]);

  const csvPages = pageCount(csvFiltered.length);
  const items: ProductItem[] =
    view === CSV_VIEW
      ? csvFiltered
          .slice((csvPage - 1) * PRODUCTS_PER_PAGE, csvPage * PRODUCTS_PER_PAGE)
          .map((product) => ({ key: csvItemKey(product.row), listing: product, sourceName: "", defaultPins: product.numberOfPinsToGenerate }))
      : shop
        ? listings.listings.map((listing) => ({
            key: shopItemKey(shop.id, listing.id),
            listing,
            sourceName: shop.shopName,
            defaultPins: DEFAULT_PINS_PER_PRODUCT,
          }))
        : [];

  const paging: Paging | null =
    view === CSV_VIEW
      ? { kind: "numbered", page: csvPage, pages: csvPages, onPage: setCsvPage }
      : shop && listings.phase !== "idle"
        ? pagesByLink(shop.shopType)
          ? {
              kind: "links",
              page: listings.page,
              hasPrevious: listings.page > 1 && Boolean(listings.previousPageLink),
              hasNext: Boolean(listings.nextPageLink),
              onPrevious: () => model.previousPage(),
              onNext: () => model.nextPage(),
            }
          : { kind: "numbered", page: listings.page, pages: pageCount(listings.count), onPage: (page) => model.goToPage(page) }
        : null;

  // The benchmark's mark: the new file's first rows are on screen.
  const firstRowsMarked = useRef(false);
  useEffect(() => {
    if (csvState.batches === 0) firstRowsMarked.current = false;
    else if (view === CSV_VIEW && items.length > 0 && !firstRowsMarked.current) {
      firstRowsMarked.current = true;
      requestAnimationFrame(() => performance.mark(CSV_MARKS.firstRows));
    }
  }, [view, items.length, csvState.batches]);

  const totals = chosenPinTotal(chosen, pins);
  function generate() {
    const plan = generationPlan(chosen, pins, locale);
    if (plan.sources.length === 0) return;
    if (!handProductsToGenerator(plan)) {
      setActionError("Your browser did not let us hand the products to the generator (session storage is full or blocked).");
      return;
    }
    navigate("/generate");
  }

  const loading = view === CSV_VIEW ? csvState.phase === "reading" && items.length === 0 : listings.phase === "loading";
  const options = [
    ...(shops ?? []).map((candidate) => ({
      value: candidate.id,
      label: `${candidate.shopName} (${candidate.shopType})${candidate.status === "reauth" ? ", needs reconnecting" : ""}`,
    })),
  ];
  if (csvState.count > 0 || csvState.phase === "reading") options.push({ value: CSV_VIEW, label: `CSV file: ${csvState.fileName}` });

  return (
    <main className="page products-page">
      <header className="products-page__header">
        <h1>Products</h1>
        <p className="muted">Turn the products of your Etsy, Shopify or WooCommerce shop, or the rows of a CSV file, into pins.</p>
      </header>

      <section className="products-section" aria-labelledby="add-shop-title">
        <h2 id="add-shop-title">Add your shop</h2>
        <div className="products-add">
          <div className="products-add__block">
            <h3>Connect a shop</h3>
            <p className="muted small">Your active listings appear below; nothing in your shop changes.</p>
            <ShopConnectors connector={connector} />
          </div>
          <div className="products-add__block">
            <h3>Upload a CSV file</h3>
            <CsvUpload state={csvState} onUpload={csv.upload} />
          </div>
        </div>
      </section>

      <section className="products-section" aria-labelledby="your-products-title">
        <h2 id="your-products-title">Your products</h2>
        {shopsError ? (
          <p className="notice notice--error" role="alert">
            Unable to load your shops: {shopsError}
          </p>
        ) : null}
        {shops === null && !shopsError ? (
          <p className="loading">
            <Spinner label="Loading your shops" /> Loading your shops…
          </p>
        ) : options.length === 0 ? (
          <p className="muted">Connect a shop or upload a CSV file: its products appear here, ready to become pins.</p>
        ) : (
          <>
            <div className="products-toolbar">
              <div className="field products-toolbar__source">
                <label className="field__label" htmlFor="products-source">
                  Products from
                </label>
                <select id="products-source" className="field__input field__select" value={view ?? ""} onChange={(event) => void choose(event.target.value)}>
                  {view === null ? <option value="">Choose a shop or file</option> : null}
                  {options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
              {view !== null ? (
                <div className="field products-toolbar__search">
                  <label className="field__label" htmlFor="products-search">
                    Search products
                  </label>
                  <input
                    id="products-search"
                    className="field__input"
                    type="search"
                    value={view === CSV_VIEW ? csvSearchInput : listings.search}
                    disabled={view !== CSV_VIEW && !listings.shop}
                    onChange={(event) => (view === CSV_VIEW ? setCsvSearchInput(event.target.value) : model.setSearch(event.target.value))}
                  />
                </div>
              ) : null}
              {shop?.shopType === "Shopify" && shop.status === "ok" ? (
                <div className="field products-toolbar__status">
                  <label className="field__label" htmlFor="products-status">
                    Status
                  </label>
                  <select
                    id="products-status"
                    className="field__input field__select"
                    value={listings.status}
                    onChange={(event) => model.setStatus(event.target.value as ShopifyProductStatus)}
                  >
                    {SHOPIFY_PRODUCT_STATUSES.map((status) => (
                      <option key={status} value={status}>
                        {STATUS_LABELS[status]}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              {shop ? (
                <button type="button" className="button button--ghost products-toolbar__remove" onClick={() => setRemoving(shop)}>
                  Remove shop
                </button>
              ) : null}
            </div>

            {actionError ? (
              <p className="notice notice--error" role="alert">
                {actionError}
              </p>
            ) : null}

            {shop?.status === "reauth" ? (
              <div className="notice notice--error products-reconnect" role="region" aria-label="Reconnect your shop">
                <span>
                  We can no longer read the products of {shop.shopName}: {shop.shopType} asks you to connect it again.
                </span>
                <button type="button" className="button button--primary" onClick={() => connector.connect(shop.shopType, shop.shopUrl ?? "")}>
                  Reconnect
                </button>
              </div>
            ) : shop && listings.phase === "failed" ? (
              <div className="notice notice--error" role="alert">
                <span>{listings.error}</span>{" "}
                <button type="button" className="link-button" onClick={() => model.retry()}>
                  Try again
                </button>
              </div>
            ) : null}

            {view !== null && !(shop && (shop.status === "reauth" || listings.phase === "failed")) ? (
              <ProductGrid
                items={items}
                total={view === CSV_VIEW ? csvFiltered.length : listings.count}
                loading={loading}
                paging={paging}
                chosen={chosen}
                pins={pins}
                locale={locale}
                onChoose={(item, on) => setChosenMap((current) => setChosen(current, item, on))}
                onChoosePage={(on) => setChosenMap((current) => setPageChosen(current, items, on))}
                onPins={(key, count) => setPins((current) => new Map(current).set(key, count))}
                emptyText={
                  view === CSV_VIEW
                    ? csvSearch
                      ? "No rows of the file match your search."
                      : "The file has no products yet."
                    : listings.search
                      ? "No products match your search."
                      : "This shop has no products to show."
                }
              />
            ) : null}
          </>
        )}

        <div className="products-generate" role="region" aria-label="Generate pins from the chosen products">
          <p className="products-generate__count" aria-live="polite">
            {chosen.size === 0
              ? "Choose products to make pins from."
              : `${chosen.size} ${chosen.size === 1 ? "product" : "products"} chosen, ${totals.wanted} ${totals.wanted === 1 ? "pin" : "pins"}.`}
            {totals.wanted > MAX_POSTS ? ` One generation holds at most ${MAX_POSTS} pins: the first ${MAX_POSTS} are made.` : ""}
          </p>
          <div className="products-generate__actions">
            {chosen.size > 0 ? (
              <button type="button" className="button button--ghost" onClick={() => setChosenMap(new Map())}>
                Clear choice
              </button>
            ) : null}
            <button type="button" className="button button--primary" disabled={chosen.size === 0} onClick={generate}>
              Generate pins
            </button>
          </div>
        </div>
      </section>

      <CatalogSection chosen={chosen} />

      <Dialog.Root open={removing !== null} onOpenChange={(open) => !open && setRemoving(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Remove {removing?.shopName}?</Dialog.Title>
            <Dialog.Description className="dialog__text">
              Its products leave this page and we stop reading them; pins you already made stay. You can connect the shop again at any time.
            </Dialog.Description>
            <DialogActions>
              <button type="button" className="button button--danger" onClick={() => removing && void confirmRemove(removing)}>
                Remove shop
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </main>
  );
}
