import { randomBytes } from "node:crypto";
import { providerState, type SandboxState } from "../../state.ts";

/**
 * What the WooCommerce stand-in remembers: the REST API keys its stores
 * issued through the app authorisation endpoint, the grant nonces of open
 * "Approve" links, the key deliveries to apps (callbacks), and per-store
 * settings. Any store slug exists; every store sells the demo catalogue.
 */

export interface WooKey {
  keyId: number;
  store: string;
  consumerKey: string;
  consumerSecret: string;
  permissions: "read" | "write" | "read_write";
  description: string;
  createdAt: string;
}

/** The keys as WooCommerce POSTs them to the app's callback_url, and how that went. */
export interface WooCallback {
  id: string;
  store: string;
  keyId: number;
  /** The app's callback_url. */
  url: string;
  headers: Record<string, string>;
  /** The exact JSON body: {key_id, user_id, consumer_key, consumer_secret, key_permissions}. */
  body: string;
  /** The app's user_id as it came in the authorize request. */
  userId: string;
  /** Where the browser goes once the app took the keys (return_url?success=1&user_id=...). */
  returnUrl: string;
  /** held: waiting for a test to deliver it; delivered: the app answered 200; refused: it answered otherwise (the key was deleted); unreachable. */
  delivery: "held" | "delivered" | "refused" | "unreachable";
  status: number | null;
  at: string;
}

export interface WooStoreSettings {
  name?: string;
  currency?: string;
}

export interface WooState {
  nextKeyId: number;
  keys: Map<string, WooKey>;
  /** Nonces of the Approve links shown (single use), with the store and request they were made for. */
  nonces: Map<string, { store: string; query: string; expiresAt: number }>;
  callbacks: WooCallback[];
  /** While true, approving does not POST the keys: a test fetches them from the controls and delivers them itself. */
  holdCallbacks: boolean;
  stores: Map<string, WooStoreSettings>;
}

export function wooState(state: SandboxState): WooState {
  return providerState(state, "woocommerce", () => ({
    nextKeyId: 1,
    keys: new Map(),
    nonces: new Map(),
    callbacks: [],
    holdCallbacks: process.env.WOOCOMMERCE_HOLD_CALLBACKS === "1",
    stores: new Map(),
  }));
}

/** Store slugs: the part of the path after /woocommerce/. */
export const STORE_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** WooCommerce's wc_rand_hash(): 40 hex characters. */
export const randHash = () => randomBytes(20).toString("hex");

export function storeName(woo: WooState, store: string): string {
  return (
    woo.stores.get(store)?.name ??
    store
      .split("-")
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(" ")
  );
}

/** The demo catalogue's currency unless a test set another for this store. */
export function storeCurrency(woo: WooState, store: string): string {
  return woo.stores.get(store)?.currency ?? "USD";
}

/** WooCommerce's error body: {code, message, data: {status}}. */
export function wooError(code: string, message: string, status: number) {
  return { code, message, data: { status } };
}
