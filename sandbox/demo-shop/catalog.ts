/**
 * The demo shop the Etsy, Shopify and WooCommerce stand-ins all sell from:
 * 147 products (133 of them active), generated deterministically (the same every run), each with a
 * title, description, price, categories, tags, a status (Shopify's active,
 * draft or archived) and three or four product photos drawn by ./photos.ts.
 * Each stand-in dresses these in its own API's shapes.
 */

export interface DemoProduct {
  /** 1-based position in the catalogue: stable ids are derived from it. */
  number: number;
  /** URL-safe handle ("speckled-stoneware-mug-sage"). */
  handle: string;
  title: string;
  description: string;
  /** Price in `currency` as a decimal string ("24.00"). */
  price: string;
  currency: string;
  categories: string[];
  tags: string[];
  /** Shopify's product status; Etsy and WooCommerce list only the active ones as published. */
  status: "active" | "draft" | "archived";
  /** How many photos it has (3 or 4): photo n of product p is served by each stand-in from ./photos.ts. */
  photoCount: number;
  /** The product's colour, which its photos show. */
  colour: { name: string; hex: string };
  /** What its photos show. */
  kind: ProductKind;
  createdAt: string;
}

export type ProductKind = "mug" | "vase" | "candle" | "tote" | "print" | "pillow" | "planter";

const KINDS: { kind: ProductKind; noun: string; category: string; material: string[]; base: number; blurb: string }[] = [
  {
    kind: "mug",
    noun: "Mug",
    category: "Kitchen & Dining",
    material: ["Speckled Stoneware", "Hand-Thrown Ceramic", "Matte Porcelain"],
    base: 24,
    blurb: "holds a generous 12 oz, is dishwasher safe and feels good in both hands",
  },
  {
    kind: "vase",
    noun: "Bud Vase",
    category: "Home Decor",
    material: ["Ribbed Glass", "Terracotta", "Glazed Ceramic"],
    base: 32,
    blurb: "is sized for a few stems from the garden and stands 18 cm tall",
  },
  {
    kind: "candle",
    noun: "Soy Candle",
    category: "Home Fragrance",
    material: ["Cedar & Fig", "Sea Salt & Sage", "Amber & Vanilla"],
    base: 22,
    blurb: "is hand-poured in small batches and burns cleanly for about 45 hours",
  },
  {
    kind: "tote",
    noun: "Tote Bag",
    category: "Bags & Accessories",
    material: ["Waxed Canvas", "Organic Cotton", "Linen Blend"],
    base: 38,
    blurb: "carries a laptop and a week's groceries, with an inside pocket for keys",
  },
  {
    kind: "print",
    noun: "Art Print",
    category: "Wall Art",
    material: ["Botanical", "Abstract Landscape", "Minimal Line"],
    base: 28,
    blurb: "is printed on heavyweight archival paper and ships flat in a rigid mailer",
  },
  {
    kind: "pillow",
    noun: "Cushion Cover",
    category: "Textiles",
    material: ["Stonewashed Linen", "Chunky Knit", "Block-Printed Cotton"],
    base: 35,
    blurb: "fits a 45 cm insert and closes with a hidden zip",
  },
  {
    kind: "planter",
    noun: "Planter",
    category: "Garden",
    material: ["Concrete", "Glazed Stoneware", "Woven Seagrass"],
    base: 29,
    blurb: "has a drainage hole and a matching saucer, for pots up to 15 cm",
  },
];

const COLOURS = [
  { name: "Sage", hex: "#8fa98a" },
  { name: "Terracotta", hex: "#c46a4a" },
  { name: "Oat", hex: "#d9c7a7" },
  { name: "Ink Blue", hex: "#34506e" },
  { name: "Blush", hex: "#e2a9a1" },
  { name: "Charcoal", hex: "#45474b" },
  { name: "Mustard", hex: "#d1a33c" },
];

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function build(): DemoProduct[] {
  const products: DemoProduct[] = [];
  const first = Date.UTC(2025, 0, 6, 10, 0, 0);
  for (let m = 0; m < 3; m += 1) {
    for (let c = 0; c < COLOURS.length; c += 1) {
      for (let k = 0; k < KINDS.length; k += 1) {
        const kind = KINDS[k]!;
        const colour = COLOURS[c]!;
        const material = kind.material[m]!;
        const number = products.length + 1;
        const title = `${material} ${kind.noun} in ${colour.name}`;
        const price = (kind.base + m * 4 + (c % 3) * 2 + 0.5 * (number % 2)).toFixed(2);
        products.push({
          number,
          handle: slug(title),
          title,
          description: `Our ${material.toLowerCase()} ${kind.noun.toLowerCase()} in ${colour.name.toLowerCase()} ${kind.blurb}. Made in our studio and packed plastic-free.`,
          price,
          currency: "USD",
          categories: [kind.category, colour.name],
          tags: [kind.noun.toLowerCase(), colour.name.toLowerCase(), material.toLowerCase(), "handmade"],
          status: number % 17 === 0 ? "draft" : number % 23 === 0 ? "archived" : "active",
          photoCount: 3 + (number % 2),
          colour,
          kind: kind.kind,
          createdAt: new Date(first + number * 36 * 60 * 60 * 1000).toISOString().replace(".000Z", "Z"),
        });
      }
    }
  }
  return products;
}

/** Every product, oldest first. */
export const DEMO_PRODUCTS: readonly DemoProduct[] = build();

/** Products whose title, description or tags contain every word of `search` (case-insensitive), as the providers' searches roughly do. */
export function searchProducts(products: readonly DemoProduct[], search: string): DemoProduct[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...products];
  return products.filter((product) => {
    const text = `${product.title} ${product.description} ${product.tags.join(" ")}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export function productByNumber(number: number): DemoProduct | undefined {
  return Number.isInteger(number) ? DEMO_PRODUCTS[number - 1] : undefined;
}
