/// <reference lib="webworker" />
import type { CsvReply, CsvRequest } from "./csv-protocol.ts";
import { readCsvBlob } from "./csv-read.ts";

/**
 * The CSV worker: reads and parses an uploaded file off the page's main thread
 * (10,000 rows must not freeze the page), sending the products in batches so
 * the first page shows while the rest is still being read.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<CsvRequest>) => {
  const { id, file } = event.data;
  void readCsvBlob(file, (message) => scope.postMessage({ id, ...message } satisfies CsvReply));
};
