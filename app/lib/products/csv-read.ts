import type { CsvMessage } from "./csv-protocol.ts";
import { parseProductCsv } from "./csv-products.ts";

/** Reads a file's text and parses it, reporting batches and the end (in the worker, or on the page where workers are unavailable). */
export async function readCsvBlob(file: Blob, send: (message: CsvMessage) => void): Promise<void> {
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    send({ type: "done", rows: 0, failure: `The file could not be read (${error instanceof Error ? error.message : String(error)}).` });
    return;
  }
  const result = parseProductCsv(text, {
    onProgress: ({ products, problems, progress }) => send({ type: "batch", products, problems, progress }),
  });
  send({ type: "done", rows: result.rows, failure: result.failure });
}
