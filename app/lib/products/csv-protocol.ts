import type { CsvProduct, CsvRowProblem } from "./csv-products.ts";

/** Messages between the products page and the CSV worker (./csv-worker.ts). */
export type CsvRequest = { id: number; file: Blob };
/** What the reader reports: a batch of rows, then the end. */
export type CsvMessage =
  | { type: "batch"; products: CsvProduct[]; problems: CsvRowProblem[]; progress: number }
  | { type: "done"; rows: number; failure: string | null };
export type CsvReply = CsvMessage & { id: number };
