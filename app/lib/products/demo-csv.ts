import Papa from "papaparse";
import { CSV_COLUMNS } from "./csv-products.ts";

/**
 * The demo CSV file offered on /products: every column, a few products as a
 * shop would list them. Their pictures are served by this site
 * (public/demo-products/, drawn by scripts/demo-product-photos.ts), so the
 * file names them with the address of the site it was downloaded from.
 */
export const DEMO_CSV_PRODUCTS = [
  {
    handle: "speckled-stoneware-mug-in-sage",
    title: "Speckled Stoneware Mug in Sage",
    description:
      "Our speckled stoneware mug in sage holds a generous 12 oz, is dishwasher safe and feels good in both hands. Made in our studio and packed plastic-free.",
    price: "24.50",
    currency: "USD",
    categories: ["Kitchen & Dining", "Mugs"],
    photos: 3,
    pins: 5,
  },
  {
    handle: "ribbed-glass-bud-vase-in-terracotta",
    title: "Ribbed Glass Bud Vase in Terracotta",
    description:
      "Our ribbed glass bud vase in terracotta is sized for a few stems from the garden and stands 18 cm tall. Made in our studio and packed plastic-free.",
    price: "34.50",
    currency: "USD",
    categories: ["Home Decor", "Vases"],
    photos: 3,
    pins: 5,
  },
  {
    handle: "cedar-and-fig-soy-candle-in-oat",
    title: "Cedar & Fig Soy Candle in Oat",
    description: 'A "cosy evening" favourite: our cedar & fig soy candle is hand-poured in small batches and burns cleanly for about 45 hours.',
    price: "26.50",
    currency: "USD",
    categories: ["Home Fragrance", "Candles"],
    photos: 2,
    pins: 5,
  },
  {
    handle: "waxed-canvas-tote-bag-in-ink-blue",
    title: "Waxed Canvas Tote Bag in Ink Blue",
    description: "Our waxed canvas tote bag in ink blue carries a laptop and a week's groceries, with an inside pocket for keys.",
    price: "38.50",
    currency: "USD",
    categories: ["Bags & Accessories", "Totes"],
    photos: 3,
    pins: 5,
  },
  {
    handle: "stonewashed-linen-cushion-cover-in-sage",
    title: "Stonewashed Linen Cushion Cover in Sage",
    description: "Our stonewashed linen cushion cover in sage fits a 45 cm insert and closes with a hidden zip.",
    price: "35.00",
    currency: "USD",
    categories: ["Textiles", "Cushions"],
    photos: 2,
    pins: 3,
  },
] as const;

/** The demo file's text, its pictures at `origin` (the site it is downloaded from). */
export function demoProductsCsv(origin: string): string {
  const rows = DEMO_CSV_PRODUCTS.map((product) => ({
    title: product.title,
    description: product.description,
    price: product.price,
    currency: product.currency,
    url: `https://shop.example.com/products/${product.handle}`,
    images: Array.from({ length: product.photos }, (_, i) => `${origin}/demo-products/${product.handle}-${i + 1}.jpg`).join(", "),
    categories: product.categories.join(", "),
    numberOfPinsToGenerate: String(product.pins),
  }));
  return `${Papa.unparse({ fields: [...CSV_COLUMNS], data: rows.map((row) => CSV_COLUMNS.map((column) => row[column])) }, { newline: "\r\n" })}\r\n`;
}
