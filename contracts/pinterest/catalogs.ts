import * as v from "valibot";
import { body, plainLine, plainText } from "../fields.ts";

/**
 * Pinterest catalogs (spec sections 3, 4, 7, 8; issue 18; docs/decisions/043-pinterest-catalogs.md):
 * a user's named sets of products, each published to Pinterest as a product
 * feed file. One schema per call, used by the page and the API.
 */

// ---------------------------------------------------------------- messages (spec section 8)

export const addItemsError = (error: string) => `Error adding items to catalog: ${error}`;
export const updateCatalogError = (error: string) => `Error updating catalog: ${error}`;
export const CATALOG_NOT_FOUND = "Catalog not found";
export const CATALOG_ITEM_NOT_FOUND = "Catalog item not found";

// ---------------------------------------------------------------- limits

/** Catalogs a user may keep. */
export const MAX_CATALOGS = 50;
/** Items in one catalog (Pinterest takes far more; a page of ours stays readable). */
export const MAX_CATALOG_ITEMS = 2000;
/** Items in one addItemsToCatalog call. */
export const MAX_ITEMS_PER_ADD = 500;
/** Pictures of an item: the main image and up to 10 additional ones (Pinterest's additional_image_link limit). */
export const MAX_ITEM_IMAGES = 11;

/** The availability values of Pinterest's product feed (column `availability`). */
export const CATALOG_AVAILABILITIES = ["in stock", "out of stock", "preorder"] as const;
export type CatalogAvailability = (typeof CATALOG_AVAILABILITIES)[number];
/** Pinterest's `condition` values; "" when the seller does not say. */
export const CATALOG_CONDITIONS = ["new", "used", "refurbished"] as const;
export type CatalogCondition = (typeof CATALOG_CONDITIONS)[number] | "";

// ---------------------------------------------------------------- fields

const Id = (field: string) => v.pipe(v.string(`${field} is required`), v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(64, `${field} is invalid`));

const WebAddress = (field: string) =>
  v.pipe(
    v.string(`${field} must be a web address`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(2048, `${field} is too long (at most 2048 characters)`),
    v.check((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
      } catch {
        return false;
      }
    }, `${field} must be a web address starting with https://`),
  );

/**
 * A product link, normalised to https as it arrives (spec section 5; issue 40 point 2: Pinterest refuses product
 * links that are not secure). Pictures keep their address: the catalog reads them from where they are served.
 */
const ProductLink = (field: string) =>
  v.pipe(
    WebAddress(field),
    v.transform((value) => value.replace(/^http:\/\//i, "https://")),
  );

/** A price as a decimal ("24.99"); "" when the product has none (the checks flag it). */
const Price = v.pipe(
  v.union([v.string(), v.number()], "price must be a number such as 24.99"),
  v.transform((value) => (typeof value === "number" ? String(value) : value.trim().replace(/^\$/, ""))),
  v.check((value) => value === "" || /^\d{1,9}(\.\d+)?$/.test(value), "price must be a number such as 24.99"),
  // Pinterest reads prices with two decimals ("24.99 USD").
  v.transform((value) => (value === "" ? "" : Number(value).toFixed(2))),
);

/** ISO 4217 code; "" for the catalog's currency. */
const Currency = v.pipe(
  v.string("currency must be a currency code such as USD"),
  v.trim(),
  v.toUpperCase(),
  v.check((value) => value === "" || /^[A-Z]{3}$/.test(value), "currency must be a currency code such as USD"),
);

const Title = v.pipe(v.string("title must be text"), plainLine, v.trim(), v.maxLength(1000, "title is too long (at most 1000 characters)"));
const Description = v.pipe(v.string("description must be text"), plainText, v.trim(), v.maxLength(20000, "description is too long (at most 20000 characters)"));
const Brand = v.pipe(v.string("brand must be text"), plainLine, v.trim(), v.maxLength(100, "brand is too long (at most 100 characters)"));
const Availability = v.picklist(CATALOG_AVAILABILITIES, "availability must be one of in stock, out of stock, preorder");
const Condition = v.picklist([...CATALOG_CONDITIONS, ""], "condition must be one of new, used, refurbished (or empty)");
const Categories = v.pipe(
  v.array(
    v.pipe(v.string("categories must be text"), plainLine, v.trim(), v.maxLength(127, "a category is too long (at most 127 characters)")),
    "categories must be a list",
  ),
  v.maxLength(20, "categories holds at most 20 entries"),
  v.transform((list) => list.filter(Boolean)),
);
const Images = v.pipe(
  v.array(WebAddress("images"), "images must be a list of web addresses"),
  v.maxLength(MAX_ITEM_IMAGES, `images holds at most ${MAX_ITEM_IMAGES} pictures`),
);

const CatalogName = v.pipe(
  v.string("name is required"),
  plainLine,
  v.trim(),
  v.nonEmpty("name is required"),
  v.maxLength(100, "name must be at most 100 characters"),
);
const ProfileUsername = v.pipe(v.string("pinterestUsername must be text"), v.trim(), v.maxLength(100, "pinterestUsername is invalid"));

/** A catalog item as a caller sends it (from a shop listing or a CSV row). */
export const CatalogItemInput = v.object(
  {
    title: Title,
    description: v.optional(Description, ""),
    link: ProductLink("link"),
    price: v.optional(Price, ""),
    currency: v.optional(Currency, ""),
    availability: v.optional(Availability, "in stock"),
    brand: v.optional(Brand, ""),
    condition: v.optional(Condition, ""),
    categories: v.optional(Categories, []),
    images: v.optional(Images, []),
  },
  (issue) => (issue.expected && /^".*"$/.test(issue.expected) ? `${issue.expected.slice(1, -1)} is required` : "each item must be an object"),
);
export type CatalogItemInput = v.InferInput<typeof CatalogItemInput>;

// ---------------------------------------------------------------- calls

/** POST /api/catalogs/createCatalog (ours, decision 043). */
export const CreateCatalogBody = body({
  name: CatalogName,
  /** The connected Pinterest profile the catalog is published to (default: the active one). */
  pinterestUsername: v.optional(ProfileUsername),
  currency: v.optional(v.pipe(Currency, v.nonEmpty("currency must be a currency code such as USD"))),
});

/** PATCH /api/catalogs/updateCatalog/{id}: the name, the profile it publishes to, its default currency. */
export const UpdateCatalogBody = v.pipe(
  body({
    name: v.optional(CatalogName),
    pinterestUsername: v.optional(ProfileUsername),
    currency: v.optional(v.pipe(Currency, v.nonEmpty("currency must be a currency code such as USD"))),
  }),
  v.check(
    (input) => input.name !== undefined || input.pinterestUsername !== undefined || input.currency !== undefined,
    "name, pinterestUsername or currency is required",
  ),
);

/** POST /api/catalogs/addItemsToCatalog {catalogID, items} */
export const AddItemsToCatalogBody = body({
  catalogID: Id("catalogID"),
  items: v.pipe(
    v.array(CatalogItemInput, "items must be a list"),
    v.minLength(1, "items must hold at least one item"),
    v.maxLength(MAX_ITEMS_PER_ADD, `items holds at most ${MAX_ITEMS_PER_ADD} items`),
  ),
});

/** PATCH /api/catalogs/updateCatalogItem/{id}: any of the item's fields. */
export const UpdateCatalogItemBody = v.pipe(
  body({
    title: v.optional(Title),
    description: v.optional(Description),
    link: v.optional(ProductLink("link")),
    price: v.optional(Price),
    currency: v.optional(Currency),
    availability: v.optional(Availability),
    brand: v.optional(Brand),
    condition: v.optional(Condition),
    categories: v.optional(Categories),
    images: v.optional(Images),
  }),
  v.check((input) => Object.values(input).some((value) => value !== undefined), "at least one field of the item is required"),
);
export type UpdateCatalogItemInput = v.InferOutput<typeof UpdateCatalogItemBody>;

/** DELETE /api/catalogs/deleteCatalogItemImage {catalogItemID, image} */
export const DeleteCatalogItemImageBody = body({ catalogItemID: Id("catalogItemID"), image: WebAddress("image") });

export const CatalogIdParam = v.object({ id: Id("id") });
export const CatalogItemIdParam = v.object({ id: Id("id") });
/** GET /api/catalogs/getCatalogs/{id}: the catalog to open, or "latest" for the newest (decision 043). */
export const OPEN_LATEST = "latest";

// ---------------------------------------------------------------- answers

/** Something about an item Pinterest would refuse (`refused`) or take with a loss (`warning`), in plain words. */
export interface CatalogItemProblem {
  /** The feed column at fault: title, description, link, image_link, price, availability, ... */
  column: string;
  severity: "refused" | "warning";
  message: string;
}

export interface CatalogItem {
  id: string;
  catalogId: string;
  title: string;
  description: string;
  link: string;
  price: string;
  currency: string;
  availability: CatalogAvailability;
  brand: string;
  condition: CatalogCondition;
  categories: string[];
  images: string[];
  /** What the pre-publish checks found (measured image sizes included once measured). */
  problems: CatalogItemProblem[];
}

export interface Catalog {
  id: string;
  name: string;
  currency: string;
  /** The connected Pinterest profile it publishes to; null when none is chosen (or it was removed). */
  pinterestUsername: string | null;
  /** The public address of its feed file (stable; unguessable). */
  feedUrl: string;
  itemCount: number;
  /** Set once registered with Pinterest. */
  pinterestFeedId: string | null;
  /** Epoch ms of the last publish; null before the first. */
  publishedAt: number | null;
  publishedItemCount: number | null;
  leftOutItemCount: number | null;
  /** Items changed since the last publish (publish again to send them). */
  changedSincePublish: boolean;
  lastError: string | null;
  createdAt: number;
}

/** GET /api/catalogs/getCatalogs/{id}: the state of the page (spec: activeCatalog, catalogItems, allCatalogs). */
export interface CatalogsState {
  allCatalogs: Catalog[];
  activeCatalog: Catalog | null;
  catalogItems: CatalogItem[];
}

/** A Pinterest issue with one item, in plain words. */
export interface CatalogItemIssue {
  itemId: string | null;
  title: string | null;
  column: string | null;
  severity: "error" | "warning";
  message: string;
  providedValue: string | null;
}

/** Pinterest's latest processing of the feed, in plain words. */
export interface CatalogProcessing {
  status: "processing" | "completed" | "failed";
  /** Epoch ms. */
  createdAt: number;
  itemsInFile: number | null;
  itemsAccepted: number | null;
  /** Whole-feed problems ("Pinterest couldn't download your feed."). */
  feedErrors: string[];
  feedWarnings: string[];
  itemIssues: CatalogItemIssue[];
}

/** GET /api/catalogs/getCatalogStatus/{id}, POST /api/catalogs/publishCatalog/{id} */
export interface CatalogStatus {
  catalog: Catalog;
  /** Items the file leaves out, with why. */
  refusedItems: { id: string; title: string; problems: CatalogItemProblem[] }[];
  /** Null before the first publish, or when Pinterest could not be asked. */
  processing: CatalogProcessing | null;
  /** Why Pinterest could not be asked, in plain words. */
  processingError: string | null;
}
