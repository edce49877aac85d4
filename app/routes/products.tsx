import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { ProductsPage } from "../components/products/products-page.tsx";
import productsStyles from "../components/products/products.css?url";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
  { rel: "stylesheet", href: productsStyles },
];
export const meta: MetaFunction = () => [{ title: "Products | Pinboard Studio" }];

/** /products: shop products and CSV rows turned into pins (spec section 2). */
export default ProductsPage;
