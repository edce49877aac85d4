// Draws the pictures of the demo CSV file's products (app/lib/products/demo-csv.ts) into
// public/demo-products/, from the sandbox's demo shop (the same drawn product photos the shop
// stand-ins serve). Run once when the demo rows change: `node scripts/demo-product-photos.ts`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_PRODUCTS } from "../sandbox/demo-shop/catalog.ts";
import { productPhotoJpeg } from "../sandbox/demo-shop/photos.ts";
import { DEMO_CSV_PRODUCTS } from "../app/lib/products/demo-csv.ts";

const folder = join(import.meta.dirname, "..", "public", "demo-products");
mkdirSync(folder, { recursive: true });
for (const row of DEMO_CSV_PRODUCTS) {
  const product = DEMO_PRODUCTS.find((candidate) => candidate.handle === row.handle);
  if (!product) throw new Error(`No demo-shop product ${row.handle}`);
  for (let n = 1; n <= row.photos; n++) {
    const jpeg = await productPhotoJpeg(product, n, "full");
    if (!jpeg) throw new Error(`No photo ${n} of ${row.handle}`);
    writeFileSync(join(folder, `${row.handle}-${n}.jpg`), jpeg);
    console.log(`${row.handle}-${n}.jpg ${jpeg.length} bytes`);
  }
}
