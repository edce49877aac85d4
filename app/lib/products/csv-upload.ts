import type { CsvProduct, CsvRowProblem } from "./csv-products.ts";
import type { CsvMessage, CsvReply } from "./csv-protocol.ts";
import { readCsvBlob } from "./csv-read.ts";

export interface CsvUploadHandlers {
  onBatch(products: CsvProduct[], problems: CsvRowProblem[], progress: number): void;
  onDone(summary: { rows: number; failure: string | null }): void;
}

let nextId = 1;

/**
 * Parses an uploaded CSV file in a Web Worker (the page stays responsive with
 * 10,000 rows), or on the page where a worker cannot start. Answers a function
 * that stops it (a new file chosen meanwhile).
 */
export function uploadCsv(file: Blob, handlers: CsvUploadHandlers): () => void {
  const id = nextId++;
  let stopped = false;
  let received = false;
  const deliver = (reply: CsvMessage) => {
    if (stopped) return;
    received = true;
    if (reply.type === "batch") handlers.onBatch(reply.products, reply.problems, reply.progress);
    else {
      stopped = true;
      handlers.onDone({ rows: reply.rows, failure: reply.failure });
    }
  };
  let worker: Worker | null = null;
  try {
    worker = typeof Worker === "undefined" ? null : new Worker(new URL("./csv-worker.ts", import.meta.url), { type: "module", name: "csv-products" });
  } catch (error) {
    console.warn("The CSV worker is unavailable: the file is read on the page.", error);
  }
  if (!worker) {
    void readCsvBlob(file, deliver);
  } else {
    const running = worker;
    running.onmessage = (event: MessageEvent<CsvReply>) => {
      if (event.data.id !== id) return;
      deliver(event.data);
      if (event.data.type === "done") running.terminate();
    };
    running.onerror = (event) => {
      event.preventDefault();
      running.terminate();
      // The worker failed to start: read the file on the page instead (once it has sent rows, it says what went wrong).
      if (!received) void readCsvBlob(file, deliver);
      else deliver({ type: "done", rows: 0, failure: "The file could not be read to the end." });
    };
    running.postMessage({ id, file });
  }
  return () => {
    stopped = true;
    worker?.terminate();
  };
}
