import { useCallback, useEffect, useRef, useState } from "react";
import { csvFileProblem, PARSE_FAILED_MESSAGE, type CsvProduct, type CsvRowProblem } from "../../lib/products/csv-products.ts";
import { uploadCsv } from "../../lib/products/csv-upload.ts";

/** Marks for the benchmark (read with performance.getEntriesByName). */
export const CSV_MARKS = { chosen: "products:csv-chosen", firstRows: "products:csv-first-rows", parsed: "products:csv-parsed" } as const;

export interface CsvState {
  phase: "idle" | "reading" | "done" | "failed";
  fileName: string;
  /** Products read so far (the rows live in a ref: see `products`). */
  count: number;
  problems: CsvRowProblem[];
  /** 0 to 1 while reading. */
  progress: number;
  /** Rows in the file (empty lines excluded), once read. */
  rows: number;
  /** Why nothing could be read: 'Please select a CSV file to upload.' or 'Failed to parse CSV file.' and the reason. */
  error: string | null;
  /** Batches of this file's rows received so far (0: what shows is still the earlier file's). */
  batches: number;
}

const IDLE: CsvState = { phase: "idle", fileName: "", count: 0, problems: [], progress: 0, rows: 0, error: null, batches: 0 };

/**
 * The uploaded CSV file's products: read in a Web Worker, arriving in
 * batches (the first page at once), bad rows listed beside the good ones.
 */
export function useCsvProducts(onFirstRows: () => void) {
  const [state, setState] = useState<CsvState>(IDLE);
  const products = useRef<CsvProduct[]>([]);
  const stop = useRef<(() => void) | null>(null);
  const firstRows = useRef(onFirstRows);
  firstRows.current = onFirstRows;

  useEffect(() => () => stop.current?.(), []);

  const upload = useCallback((file: File | null | undefined) => {
    const problem = csvFileProblem(file);
    if (problem || !file) {
      setState((current) => ({ ...current, error: problem }));
      return;
    }
    stop.current?.();
    performance.mark(CSV_MARKS.chosen);
    const read: CsvProduct[] = [];
    let first = true;
    setState({ ...IDLE, phase: "reading", fileName: file.name });
    stop.current = uploadCsv(file, {
      onBatch(batch, problems, progress) {
        read.push(...batch);
        if (first && read.length > 0) {
          first = false;
          // The first page replaces the earlier file's products as soon as it is here.
          products.current = read;
          firstRows.current();
        }
        setState((current) => ({
          ...current,
          count: read.length,
          problems: problems.length > 0 ? [...current.problems, ...problems] : current.problems,
          progress,
          batches: current.batches + 1,
        }));
      },
      onDone({ rows, failure }) {
        stop.current = null;
        products.current = read;
        performance.mark(CSV_MARKS.parsed, { detail: { count: read.length } });
        setState((current) =>
          failure
            ? { ...IDLE, phase: "failed", fileName: file.name, error: `${PARSE_FAILED_MESSAGE} ${failure}` }
            : { ...current, phase: "done", count: read.length, rows, progress: 1 },
        );
      },
    });
  }, []);

  return { state, products, upload };
}
