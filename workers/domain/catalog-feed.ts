import Papa from "papaparse";
import type { CatalogItem, CatalogItemProblem } from "../../contracts/pinterest/catalogs.ts";

/**
 * A catalog as a Pinterest product feed (docs/decisions/043-pinterest-catalogs.md):
 * the checks Pinterest's product data specification makes of each item, in plain
 * words, and the feed file itself (CSV with a header row). Pure: no I/O.
 *
 * Pinterest's rules used here (help.pinterest.com "Product data specifications"):
 * id at most 127 characters; title required, at most 500; description required, at
 * most 10,000; link required, a full https address, at most 511 characters;
 * image_link required, a full address, at most 2,000 characters, the picture at
 * least 75 x 75 pixels; price required as "12.99 USD" (ISO 4217); availability one
 * of "in stock", "out of stock", "preorder"; additional_image_link at most 10
 * addresses, comma-separated; condition one of new, used, refurbished.
 */

export const FEED_LIMITS = {
  id: 127,
  title: 500,
  description: 10_000,
  link: 511,
  imageLink: 2000,
  additionalImages: 10,
  minImageSide: 75,
  productType: 750,
} as const;

/** The feed's columns: Pinterest's required ones first, then the optional ones we fill. */
export const FEED_COLUMNS = [
  "id",
  "title",
  "description",
  "link",
  "image_link",
  "price",
  "availability",
  "additional_image_link",
  "brand",
  "condition",
  "product_type",
] as const;
export type FeedColumn = (typeof FEED_COLUMNS)[number];
export const REQUIRED_FEED_COLUMNS: readonly FeedColumn[] = ["id", "title", "description", "link", "image_link", "price", "availability"];

/** The fields of an item the feed is made of. */
export type FeedItem = Omit<CatalogItem, "catalogId" | "problems">;

/** Measured [width, height] per image address; null: it could not be read; absent: not measured yet. */
export type ImageSizes = Readonly<Record<string, readonly [number, number] | null>>;

const characters = (value: string) => [...value].length;

function httpsAddress(value: string): "https" | "http" | "invalid" {
  try {
    const url = new URL(value);
    if (!url.hostname.includes(".")) return "invalid";
    return url.protocol === "https:" ? "https" : url.protocol === "http:" ? "http" : "invalid";
  } catch {
    return "invalid";
  }
}

/**
 * What Pinterest would refuse in an item (it is left out of the file) or take
 * with a loss (a warning), in plain words. `currency` is the catalog's, for an
 * item without its own.
 */
export function itemProblems(item: FeedItem, catalogCurrency: string, sizes: ImageSizes = {}): CatalogItemProblem[] {
  const problems: CatalogItemProblem[] = [];
  const refuse = (column: string, message: string) => problems.push({ column, severity: "refused", message });
  const warn = (column: string, message: string) => problems.push({ column, severity: "warning", message });

  if (characters(item.id) > FEED_LIMITS.id) refuse("id", `The item's id is longer than Pinterest's ${FEED_LIMITS.id} characters.`);
  if (!item.title.trim()) refuse("title", "The item has no title.");
  else if (characters(item.title) > FEED_LIMITS.title)
    refuse("title", `The title is ${characters(item.title)} characters long; Pinterest takes at most ${FEED_LIMITS.title}.`);
  if (!item.description.trim()) refuse("description", "The item has no description.");
  else if (characters(item.description) > FEED_LIMITS.description) {
    warn("description", `The description is longer than Pinterest's ${FEED_LIMITS.description.toLocaleString("en")} characters; Pinterest will cut it short.`);
  }

  const link = httpsAddress(item.link);
  if (link === "invalid") refuse("link", "The product link is not a web address.");
  else if (link === "http") refuse("link", "The product link must start with https:// (Pinterest refuses links that are not secure).");
  else if (characters(item.link) > FEED_LIMITS.link) refuse("link", `The product link is longer than Pinterest's ${FEED_LIMITS.link} characters.`);

  const [main, ...more] = item.images;
  if (!main) refuse("image_link", "The item has no picture.");
  else {
    if (httpsAddress(main) === "invalid") refuse("image_link", "The main picture's address is not a web address.");
    else if (characters(main) > FEED_LIMITS.imageLink)
      refuse("image_link", `The main picture's address is longer than Pinterest's ${FEED_LIMITS.imageLink} characters.`);
    const size = sizes[main];
    if (size === null) refuse("image_link", "The main picture could not be read: Pinterest would not find it either.");
    else if (size && (size[0] < FEED_LIMITS.minImageSide || size[1] < FEED_LIMITS.minImageSide)) {
      refuse(
        "image_link",
        `The main picture is too small (${size[0]} x ${size[1]} pixels); Pinterest needs at least ${FEED_LIMITS.minImageSide} x ${FEED_LIMITS.minImageSide}.`,
      );
    }
  }
  if (more.length > FEED_LIMITS.additionalImages)
    warn("additional_image_link", `Pinterest shows at most ${FEED_LIMITS.additionalImages} more pictures; the rest are left out.`);
  const smallExtra = more.filter((url) => {
    const size = sizes[url];
    return size === null || (size && (size[0] < FEED_LIMITS.minImageSide || size[1] < FEED_LIMITS.minImageSide));
  });
  if (smallExtra.length > 0)
    warn(
      "additional_image_link",
      `${smallExtra.length === 1 ? "One more picture is" : `${smallExtra.length} more pictures are`} too small or could not be read; ${smallExtra.length === 1 ? "it is" : "they are"} left out.`,
    );

  if (!item.price) refuse("price", "The item has no price.");
  else if (!/^\d+(\.\d{1,2})?$/.test(item.price)) refuse("price", `"${item.price}" is not a price Pinterest can read.`);
  const currency = item.currency || catalogCurrency;
  if (!/^[A-Z]{3}$/.test(currency)) refuse("price", "The price has no currency.");
  return problems;
}

export const isRefused = (problems: readonly CatalogItemProblem[]) => problems.some((problem) => problem.severity === "refused");

/** Additional pictures the file names: readable and large enough, at most 10. */
function additionalImages(item: FeedItem, sizes: ImageSizes): string[] {
  return item.images
    .slice(1)
    .filter((url) => {
      const size = sizes[url];
      return (
        size !== null &&
        !(size && (size[0] < FEED_LIMITS.minImageSide || size[1] < FEED_LIMITS.minImageSide)) &&
        httpsAddress(url) !== "invalid" &&
        !url.includes(",")
      );
    })
    .slice(0, FEED_LIMITS.additionalImages);
}

/** One row of the feed file. */
export function feedRecord(item: FeedItem, catalogCurrency: string, sizes: ImageSizes = {}): Record<FeedColumn, string> {
  return {
    id: item.id,
    title: item.title,
    description: item.description.length > FEED_LIMITS.description ? [...item.description].slice(0, FEED_LIMITS.description).join("") : item.description,
    link: item.link,
    image_link: item.images[0] ?? "",
    price: `${item.price} ${item.currency || catalogCurrency}`,
    availability: item.availability,
    additional_image_link: additionalImages(item, sizes).join(","),
    brand: item.brand,
    condition: item.condition,
    product_type: item.categories.join(" > ").slice(0, FEED_LIMITS.productType),
  };
}

/**
 * The feed file: a header row and one row per item Pinterest would take
 * (refused items are left out), CSV quoted by papaparse. Answers the file
 * and which items it left out.
 */
export function feedFile(items: readonly FeedItem[], catalogCurrency: string, sizes: ImageSizes = {}): { csv: string; included: string[]; leftOut: string[] } {
  const included: string[] = [];
  const leftOut: string[] = [];
  const rows: string[][] = [];
  for (const item of items) {
    if (isRefused(itemProblems(item, catalogCurrency, sizes))) {
      leftOut.push(item.id);
      continue;
    }
    included.push(item.id);
    const record = feedRecord(item, catalogCurrency, sizes);
    rows.push(FEED_COLUMNS.map((column) => record[column]));
  }
  // Pinterest reads this file, not a spreadsheet: a ' before a formula-like title would show on the pin (decision 083).
  const csv = Papa.unparse({ fields: [...FEED_COLUMNS], data: rows }, { newline: "\r\n", quotes: false, escapeFormulae: false });
  return { csv: `${csv}\r\n`, included, leftOut };
}

// ---------------------------------------------------------------- Pinterest's answers in plain words

/** Pinterest's issue codes (feed level and item level), in plain words. */
const ISSUE_WORDS: Record<string, string> = {
  FETCH_ERROR: "Pinterest couldn't download your feed.",
  FETCH_INACTIVE_FEED_ERROR: "Pinterest skipped your feed because it has not changed in 90 days.",
  REQUIRED_COLUMNS_MISSING: "The feed is missing some of the columns Pinterest requires.",
  FEED_TOO_SMALL: "The feed has no products in it.",
  DELIMITER_ERROR: "The feed file has formatting errors.",
  ENCODING_ERROR: "The feed file is not in an encoding Pinterest reads.",
  PARSE_LINE_ERROR: "Some lines of the feed could not be read.",
  ITEMID_MISSING: "The item has no id.",
  TITLE_MISSING: "The item has no title.",
  DESCRIPTION_MISSING: "The item has no description.",
  PRODUCT_LINK_MISSING: "The item has no product link.",
  LINK_FORMAT_INVALID: "The product link is not a secure web address (https://).",
  LINK_LENGTH_TOO_LONG: "The product link is too long.",
  IMAGE_LINK_MISSING: "The item has no picture.",
  IMAGE_LINK_INVALID: "The picture's address is not a web address.",
  IMAGE_LINK_LENGTH_TOO_LONG: "The picture's address is too long.",
  ITEM_MAIN_IMAGE_DOWNLOAD_FAILURE: "Pinterest could not download the main picture.",
  ITEM_ADDITIONAL_IMAGE_DOWNLOAD_FAILURE: "Pinterest could not download some of the other pictures.",
  PRICE_MISSING: "The item has no price.",
  PRODUCT_PRICE_INVALID: "The price is not written the way Pinterest reads it (such as 24.99 USD).",
  AVAILABILITY_INVALID: "The availability is not one of in stock, out of stock or preorder.",
  DUPLICATE_PRODUCTS: "Another item of the feed has the same id.",
  TITLE_LENGTH_TOO_LONG: "The title is too long; Pinterest cut it short.",
  DESCRIPTION_LENGTH_TOO_LONG: "The description is too long; Pinterest cut it short.",
  TOO_MANY_ADDITIONAL_IMAGE_LINKS: "There are more than 10 other pictures; Pinterest left some out.",
  OPTIONAL_CONDITION_INVALID: "The condition is not one of new, used or refurbished.",
  OPTIONAL_CONDITION_MISSING: "The item does not say its condition.",
  INVALID_DOMAIN: "The product link is not on your verified website.",
  NO_VERIFIED_DOMAIN: "Your website needs to be claimed on Pinterest first.",
  INTERNAL_SERVICE_ERROR: "Pinterest had a technical problem and will try again within 24 hours.",
};

/** A Pinterest issue code in plain words (unknown codes read as a sentence). */
export function issueInWords(code: string): string {
  const known = ISSUE_WORDS[code];
  if (known) return known;
  const words = code.toLowerCase().replace(/_/g, " ");
  return `Pinterest reported: ${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

/** Pinterest's attribute names (TITLE, ITEM_LINK) as the feed's columns. */
export function columnOf(attribute: string | null): string | null {
  if (!attribute) return null;
  const columns: Record<string, string> = { ITEM_ID: "id", ITEM_LINK: "link", IMAGE_LINK: "image_link", ADDITIONAL_IMAGE_LINK: "additional_image_link" };
  return columns[attribute] ?? attribute.toLowerCase();
}
