import { PRODUCTS_PER_PAGE, type ShopifyProductStatus, type ShopListing, type ShopListingsPage, type ShopProfileView } from "../../../contracts/shops/shops.ts";
import type { ListingRequest } from "./api.ts";
import { pagesByLink } from "./api.ts";

/** Spec section 9: search debounce default 300 ms. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface ListingsState {
  shop: ShopProfileView | null;
  /** What is typed in the search box (searched SEARCH_DEBOUNCE_MS after the last key). */
  search: string;
  status: ShopifyProductStatus;
  /** The page shown, from 1 (counted here for Shopify, which pages by links). */
  page: number;
  phase: "idle" | "loading" | "ready" | "failed";
  listings: ShopListing[];
  count: number;
  nextPageLink: string | null;
  previousPageLink: string | null;
  /** The server's message when the last call failed, as it is. */
  error: string;
}

export interface ListingsClient {
  fetchShopListings(shop: ShopProfileView, request: ListingRequest): Promise<ShopListingsPage>;
}

const INITIAL: ListingsState = {
  shop: null,
  search: "",
  status: "all",
  page: 1,
  phase: "idle",
  listings: [],
  count: 0,
  nextPageLink: null,
  previousPageLink: null,
  error: "",
};

/** How many numbered pages `count` listings make (at least one). */
export function pageCount(count: number, perPage = PRODUCTS_PER_PAGE): number {
  return Math.max(1, Math.ceil(count / perPage));
}

/**
 * A shop's listings as the products page shows them: which shop, the search
 * (debounced), Shopify's status filter and the page, and the answer of the
 * last call. Framework-free (the page subscribes to it), so its rules are
 * tested without a browser. An answer to a request that was overtaken (the
 * user typed on, paged on or switched shops) is dropped.
 */
export class ListingsModel {
  private state: ListingsState = INITIAL;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sequence = 0;
  /** The search the shown listings were asked for (the typed one may be newer). */
  private searched = "";
  private link: string | null = null;

  private readonly client: ListingsClient;
  private readonly debounceMs: number;

  constructor(client: ListingsClient, debounceMs = SEARCH_DEBOUNCE_MS) {
    this.client = client;
    this.debounceMs = debounceMs;
  }

  getState = (): ListingsState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<ListingsState>) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  private cancelSearch() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Shows a shop's first page (no search, status 'all'); null shows none. */
  selectShop(shop: ShopProfileView | null) {
    this.cancelSearch();
    this.sequence += 1;
    this.searched = "";
    this.link = null;
    this.set({ ...INITIAL, shop });
    if (shop) void this.load();
  }

  /** The typed search; the first page of its results loads once typing pauses. */
  setSearch(search: string) {
    this.set({ search });
    this.cancelSearch();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (search.trim() === this.searched.trim() && this.state.phase !== "failed") return;
      this.searched = search;
      this.link = null;
      this.set({ page: 1 });
      void this.load();
    }, this.debounceMs);
  }

  setStatus(status: ShopifyProductStatus) {
    if (status === this.state.status) return;
    this.link = null;
    this.set({ status, page: 1 });
    void this.load();
  }

  /** A numbered page (Etsy, WooCommerce). */
  goToPage(page: number) {
    const last = pageCount(this.state.count);
    const target = Math.min(Math.max(1, Math.trunc(page)), last);
    if (target === this.state.page && this.state.phase === "ready") return;
    this.set({ page: target });
    void this.load();
  }

  nextPage() {
    const { shop, page, nextPageLink } = this.state;
    if (!shop) return;
    if (pagesByLink(shop.shopType)) {
      if (!nextPageLink) return;
      this.link = nextPageLink;
      this.set({ page: page + 1 });
      void this.load();
    } else this.goToPage(page + 1);
  }

  previousPage() {
    const { shop, page, previousPageLink } = this.state;
    if (!shop) return;
    if (pagesByLink(shop.shopType)) {
      if (!previousPageLink) return;
      this.link = page - 1 <= 1 ? null : previousPageLink;
      this.set({ page: Math.max(1, page - 1) });
      void this.load();
    } else this.goToPage(page - 1);
  }

  /** Asks again for what failed. */
  retry() {
    if (this.state.shop) void this.load();
  }

  dispose() {
    this.cancelSearch();
    this.sequence += 1;
    this.listeners.clear();
  }

  private async load() {
    const shop = this.state.shop;
    if (!shop) return;
    const mine = ++this.sequence;
    this.set({ phase: "loading", error: "" });
    try {
      const answer = await this.client.fetchShopListings(shop, {
        search: this.searched.trim(),
        page: this.state.page,
        status: this.state.status,
        paginationLink: this.link,
      });
      if (mine !== this.sequence) return;
      this.set({
        phase: "ready",
        listings: answer.listings,
        count: answer.count,
        nextPageLink: answer.nextPageLink ?? null,
        previousPageLink: answer.previousPageLink ?? null,
      });
    } catch (error) {
      if (mine !== this.sequence) return;
      this.set({ phase: "failed", error: error instanceof Error ? error.message : String(error) });
    }
  }
}
