import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { demoProductsCsv } from "../lib/products/demo-csv.ts";

/** /demo-products.csv: the demo CSV file of /products, naming its pictures at this site's own address. */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(demoProductsCsv(new URL(request.url).origin), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="demo-products.csv"',
      "cache-control": "public, max-age=3600",
    },
  });
}
