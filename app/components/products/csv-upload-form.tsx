import { useId, useRef, type FormEvent } from "react";
import { CSV_COLUMNS, problemText } from "../../lib/products/csv-products.ts";
import { Spinner } from "../spinner.tsx";
import type { CsvState } from "./use-csv-products.ts";

/** The demo file (app/routes/demo-products[.]csv.ts): every column, a few products whose pictures this site serves. */
export const DEMO_CSV_PATH = "/demo-products.csv";
/** Bad rows listed on the page; the rest are counted. */
const PROBLEMS_SHOWN = 100;

/** 'Upload a CSV file': the file, its progress while it is read, what was loaded and each bad row. */
export function CsvUpload({ state, onUpload }: { state: CsvState; onUpload(file: File | null): void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const reading = state.phase === "reading";

  function submit(event: FormEvent) {
    event.preventDefault();
    onUpload(input.current?.files?.[0] ?? null);
  }

  const percent = Math.round(state.progress * 100);
  const badRows = new Set(state.problems.map((problem) => problem.row)).size;
  return (
    <div className="csv-upload">
      <p className="muted small">
        One product per row, with a header row naming the columns: {CSV_COLUMNS.join(", ")}. Separate several pictures or categories with commas.{" "}
        <a href={DEMO_CSV_PATH} download="demo-products.csv">
          Download the demo CSV file
        </a>
      </p>
      <form className="csv-upload__form" onSubmit={submit} noValidate>
        <div className={state.error ? "field field--invalid" : "field"}>
          <label className="field__label" htmlFor={`${id}-file`}>
            CSV file
          </label>
          <input
            ref={input}
            id={`${id}-file`}
            className="field__file"
            type="file"
            accept=".csv,text/csv"
            aria-describedby={state.error ? `${id}-error` : undefined}
            aria-invalid={state.error ? true : undefined}
          />
        </div>
        <button type="submit" className="button button--primary" disabled={reading}>
          {reading ? <Spinner /> : null}
          Upload CSV
        </button>
      </form>
      {state.error ? (
        <p className="notice notice--error" role="alert" id={`${id}-error`}>
          {state.error}
        </p>
      ) : null}
      {reading ? (
        <div className="progress csv-upload__progress">
          <p className="progress__label" id={`${id}-progress`}>
            Reading {state.fileName}: {state.count.toLocaleString()} {state.count === 1 ? "product" : "products"} so far ({percent}%)
          </p>
          <div className="progress__track" role="progressbar" aria-labelledby={`${id}-progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <span className="progress__fill" style={{ width: `${percent}%` }} />
          </div>
        </div>
      ) : null}
      {state.phase === "done" ? (
        <p className={state.count > 0 ? "notice notice--success" : "notice notice--error"} role="status">
          {state.count > 0
            ? `Loaded ${state.count.toLocaleString()} ${state.count === 1 ? "product" : "products"} from ${state.fileName}.`
            : `No products could be loaded from ${state.fileName}.`}
        </p>
      ) : null}
      {state.problems.length > 0 ? (
        <div className="notice notice--error csv-upload__problems" role="region" aria-labelledby={`${id}-problems`}>
          <p id={`${id}-problems`}>
            <strong>{badRows === 1 ? "1 row could not be loaded:" : `${badRows.toLocaleString()} rows could not be loaded:`}</strong>
          </p>
          <ul>
            {state.problems.slice(0, PROBLEMS_SHOWN).map((problem, index) => (
              <li key={index}>{problemText(problem)}</li>
            ))}
          </ul>
          {state.problems.length > PROBLEMS_SHOWN ? (
            <p>…and {(state.problems.length - PROBLEMS_SHOWN).toLocaleString()} more. Correct these rows and upload the file again.</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
