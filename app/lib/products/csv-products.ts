import Papa from "papaparse";
import { MAX_PINS_PER_SOURCE } from "../../../contracts/content/design-settings.ts";
import { DEFAULT_PINS_PER_PRODUCT, type ShopListing } from "../../../contracts/shops/shops.ts";
import { normalizeSourceUrl } from "../../../workers/scrape/url.ts";

/**
 * The CSV upload's rules (spec section 5): a header row, empty lines skipped,
 * `images` and `categories` comma-separated and trimmed. Each row becomes a
 * product; a row that breaks a rule is reported (its row number as a
 * spreadsheet shows it, the column, what is wrong) and the good rows still
 * load. Pure: the Web Worker (./csv-worker.ts) runs it off the page's thread.
 */

export const NO_FILE_MESSAGE = "Please select a CSV file to upload.";
export const PARSE_FAILED_MESSAGE = "Failed to parse CSV file.";

/** The columns a file may have, in the demo file's order. */
export const CSV_COLUMNS = ["title", "description", "price", "currency", "url", "images", "categories", "numberOfPinsToGenerate"] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
/** A row cannot become a product without these. */
export const REQUIRED_COLUMNS: readonly CsvColumn[] = ["title", "url", "images"];

/** What a pin keeps of a product (contracts/content/post.ts limits). */
const MAX_TITLE = 500;
const MAX_DESCRIPTION = 2000;
const MAX_IMAGES = 40;

/** A CSV row as a product: a shop listing with the pins to make from it. */
export interface CsvProduct extends ShopListing {
  /** The row as a spreadsheet numbers it (the header is row 1). */
  row: number;
  numberOfPinsToGenerate: number;
}

/** One thing wrong with one row. */
export interface CsvRowProblem {
  row: number;
  /** The column at fault, or null when the row as a whole is (too many values, a quote never closed). */
  column: CsvColumn | null;
  message: string;
}

export interface CsvParseResult {
  products: CsvProduct[];
  problems: CsvRowProblem[];
  /** Set when the file as a whole cannot be read: why, in words (shown after 'Failed to parse CSV file.'). */
  failure: string | null;
  /** Rows read (empty lines excluded, header excluded). */
  rows: number;
}

/** What the reader reports while it goes: the products and problems since the last report, and how far it is (0 to 1). */
export interface CsvProgress {
  products: CsvProduct[];
  problems: CsvRowProblem[];
  progress: number;
}

export interface CsvParseOptions {
  /** Called with the rows read so far: first after `firstBatch` products (a page to show at once), then every `batchSize` rows. */
  onProgress?(progress: CsvProgress): void;
  firstBatch?: number;
  batchSize?: number;
}

/** 'Please select a CSV file to upload.' without a file; a file whose name does not end in .csv is refused too. */
export function csvFileProblem(file: { name: string } | null | undefined): string | null {
  if (!file) return NO_FILE_MESSAGE;
  if (!/\.csv$/i.test(file.name.trim())) return `${NO_FILE_MESSAGE} "${file.name}" is not a .csv file.`;
  return null;
}

const isEmptyRecord = (fields: readonly string[]) => fields.every((field) => field.trim() === "");
const listOf = (value: string) =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

const CURRENCY_SYMBOLS: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR" };
const PRICE = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,3})?$/;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const CURRENCY_SIGNS = Object.keys(CURRENCY_SYMBOLS);

/** "24", "24.00", "1,299.50", "$24.00", "24.00 €" -> the decimal string and the currency its symbol names. */
export function parsePrice(raw: string): Parsed<{ price: string; symbolCurrency: string | null }> {
  const text = raw.trim();
  if (!text) return { ok: true, value: { price: "", symbolCurrency: null } };
  // A symbol first or last, by hand: the pattern /\s*[$€£¥₹]$/ tried every start in a run of spaces, so a value
  // of a few thousand carriage returns took seconds (decision 078, bench:fuzz seed 844132190).
  const leading = CURRENCY_SIGNS.includes(text[0]) ? text[0] : null;
  let number = leading ? text.slice(1).trimStart() : text;
  const trailing = number && CURRENCY_SIGNS.includes(number[number.length - 1]) ? number[number.length - 1] : null;
  if (trailing) number = number.slice(0, -1).trimEnd();
  if (!PRICE.test(number)) {
    const hint = /^\d+,\d{1,2}$/.test(number)
      ? " Write the decimals after a dot, such as 24.99."
      : " Write it as a number such as 24.00, with the currency in the currency column.";
    return { ok: false, message: `"${text}" is not a price.${hint}` };
  }
  const sign = leading ?? trailing;
  return { ok: true, value: { price: number.replace(/,/g, ""), symbolCurrency: sign ? CURRENCY_SYMBOLS[sign] : null } };
}

function parseCurrency(raw: string): Parsed<string> {
  const text = raw.trim();
  if (!text) return { ok: true, value: "" };
  if (!/^[A-Za-z]{3}$/.test(text)) return { ok: false, message: `"${text}" is not a currency code: use three letters such as USD, EUR or GBP.` };
  return { ok: true, value: text.toUpperCase() };
}

function parsePins(raw: string): Parsed<number> {
  const text = raw.trim();
  if (!text) return { ok: true, value: DEFAULT_PINS_PER_PRODUCT };
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_PINS_PER_SOURCE) {
    return { ok: false, message: `"${text}" is not a number of pins: use a whole number from 1 to ${MAX_PINS_PER_SOURCE}.` };
  }
  return { ok: true, value };
}

function parseLink(raw: string, what: string): Parsed<string> {
  const text = raw.trim();
  const checked = normalizeSourceUrl(text, { field: `"${text}"` });
  if (!checked.ok) return { ok: false, message: checked.error.replace(/^"" is required$/, `is empty: ${what}.`) };
  return { ok: true, value: checked.url };
}

function parseImages(raw: string): Parsed<string[]> {
  const urls: string[] = [];
  for (const part of listOf(raw)) {
    const checked = normalizeSourceUrl(part, { field: `"${part}"` });
    if (!checked.ok) return { ok: false, message: checked.error };
    if (!urls.includes(checked.url)) urls.push(checked.url);
  }
  if (urls.length === 0) return { ok: false, message: "is empty: give at least one picture address (several separated by commas)." };
  return { ok: true, value: urls.slice(0, MAX_IMAGES) };
}

/** The header row's columns: where each known column is, and which required ones are missing. */
export function readHeader(fields: readonly string[]): { columns: Map<CsvColumn, number>; missing: CsvColumn[] } {
  const byName = new Map(CSV_COLUMNS.map((column) => [column.toLowerCase(), column]));
  const columns = new Map<CsvColumn, number>();
  fields.forEach((field, index) => {
    const column = byName.get(
      field
        .trim()
        .replace(/^\uFEFF/, "")
        .toLowerCase(),
    );
    if (column && !columns.has(column)) columns.set(column, index);
  });
  return { columns, missing: REQUIRED_COLUMNS.filter((column) => !columns.has(column)) };
}

/** One data row -> a product, or the problems that keep it out. */
export function readRow(
  fields: readonly string[],
  row: number,
  columns: ReadonlyMap<CsvColumn, number>,
  headerLength: number,
): { product: CsvProduct | null; problems: CsvRowProblem[] } {
  const extra = fields.slice(headerLength).filter((field) => field.trim() !== "");
  if (extra.length > 0) {
    return {
      product: null,
      problems: [
        {
          row,
          column: null,
          message: `has ${fields.length} values but the header row has ${headerLength} columns: a value that contains a comma must be in double quotes.`,
        },
      ],
    };
  }
  const cell = (column: CsvColumn) => {
    const index = columns.get(column);
    return index === undefined ? "" : (fields[index] ?? "");
  };
  const problems: CsvRowProblem[] = [];
  const take = <T>(column: CsvColumn, parsed: Parsed<T>): T | null => {
    if (parsed.ok) return parsed.value;
    problems.push({ row, column, message: parsed.message });
    return null;
  };

  const title = cell("title").trim();
  if (!title) problems.push({ row, column: "title", message: "is empty: each product needs a title." });
  else if (title.length > MAX_TITLE)
    problems.push({ row, column: "title", message: `is ${title.length} characters long; a title may have at most ${MAX_TITLE}.` });
  const url = take("url", parseLink(cell("url"), "each product needs the address of its page"));
  const images = take("images", parseImages(cell("images")));
  const price = take("price", parsePrice(cell("price")));
  const currency = take("currency", parseCurrency(cell("currency")));
  const pins = take("numberOfPinsToGenerate", parsePins(cell("numberOfPinsToGenerate")));
  if (problems.length > 0 || url === null || images === null || price === null || currency === null || pins === null) return { product: null, problems };

  return {
    product: {
      id: String(row),
      row,
      title,
      description: cell("description").trim().slice(0, MAX_DESCRIPTION),
      images: images.map((image) => ({ full: image, medium: image, small: image })),
      categories: listOf(cell("categories")),
      price: price.price,
      currency: currency || (price.price ? (price.symbolCurrency ?? "") : ""),
      url,
      numberOfPinsToGenerate: pins,
    },
    problems: [],
  };
}

/** Why a text cannot be a CSV file at all, or null. */
function notText(text: string): string | null {
  if (text.includes("\u0000")) return "The file is not text: save the spreadsheet as CSV (comma-separated values) and try again.";
  return null;
}

/**
 * A whole CSV file -> products and the problems of its bad rows. Quoted values
 * may hold commas, quotes ("") and line breaks; a byte-order mark and Windows
 * line ends (CRLF) are fine; `,` `;` or a tab separates values.
 */
export function parseProductCsv(input: string, options: CsvParseOptions = {}): CsvParseResult {
  const text = input.replace(/^\uFEFF/, "");
  const result: CsvParseResult = { products: [], problems: [], failure: null, rows: 0 };
  const fail = (failure: string): CsvParseResult => ({ products: [], problems: [], failure, rows: 0 });
  const binary = notText(text);
  if (binary) return fail(binary);
  if (text.trim() === "") return fail("The file is empty: it needs a header row and a row for each product.");

  const firstBatch = options.firstBatch ?? 50;
  const batchSize = options.batchSize ?? 1000;
  let pending: CsvProgress = { products: [], problems: [], progress: 0 };
  let reported = false;
  const report = (progress: number) => {
    if (!options.onProgress) return;
    options.onProgress({ ...pending, progress });
    pending = { products: [], problems: [], progress };
    reported = true;
  };

  let record = 0;
  let header: { columns: Map<CsvColumn, number>; length: number } | null = null;
  let failure: string | null = null;
  let sinceReport = 0;

  try {
    Papa.parse<string[]>(text, {
      header: false,
      skipEmptyLines: false,
      // Told, not guessed (decision 078): Papa's delimiter guess parses the start of the file once per
      // candidate, the whole of a first row of megabytes each time (a 4 MB quoted value took 1.5 s, 0.25 s
      // told); its line-ending guess counts "\r" and "\n" in the first megabyte, so runs of a stray "\r" in a
      // "\r\n" file made millions of rows (4 MB: 3.8 million rows, over 1 s).
      ...headerFormat(text),
      step(step, parser) {
        record += 1;
        const fields = step.data;
        const unclosed = step.errors.find((error) => error.code === "MissingQuotes" || error.code === "InvalidQuotes");
        if (!header) {
          if (isEmptyRecord(fields)) return;
          const read = readHeader(fields);
          if (read.missing.length > 0) {
            failure = `The header row (row ${record}) has no ${read.missing.join(", ")} ${read.missing.length === 1 ? "column" : "columns"}. The first row must name the columns: ${CSV_COLUMNS.join(", ")} (title, url and images are required).`;
            parser.abort();
            return;
          }
          header = { columns: read.columns, length: fields.length };
          return;
        }
        if (unclosed) {
          const problem: CsvRowProblem = {
            row: record,
            column: null,
            message:
              unclosed.code === "MissingQuotes"
                ? "a quoted value is never closed, so the rest of the file could not be read."
                : 'has a stray double quote: a quote inside a quoted value is written twice ("").',
          };
          result.problems.push(problem);
          pending.problems.push(problem);
          if (unclosed.code === "MissingQuotes") parser.abort();
          return;
        }
        if (isEmptyRecord(fields)) return;
        result.rows += 1;
        const { product, problems } = readRow(fields, record, header.columns, header.length);
        if (product) {
          result.products.push(product);
          pending.products.push(product);
        }
        result.problems.push(...problems);
        pending.problems.push(...problems);
        sinceReport += 1;
        if ((!reported && result.products.length >= firstBatch) || sinceReport >= batchSize) {
          sinceReport = 0;
          report(Math.min(0.99, step.meta.cursor / text.length));
        }
      },
    });
  } catch (error) {
    return fail(`The file could not be read (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (failure) return fail(failure);
  if (!header) return fail("The file is empty: it needs a header row and a row for each product.");
  report(1);
  return result;
}

const DELIMITERS = [",", ";", "\t"] as const;

/**
 * The file's delimiter and line ending, read off its header row (the first line that is not blank, outside
 * quotes): of comma, semicolon and tab the one it holds most of, a comma when it holds none (a one-column
 * header); the line ending that ends it (none when the file is one line: Papa then finds it).
 */
export function headerFormat(text: string): { delimiter: string; newline: "\r\n" | "\n" | "\r" | undefined } {
  const counts = new Map<string, number>(DELIMITERS.map((delimiter) => [delimiter, 0]));
  let quoted = false;
  let seen = false;
  let newline: "\r\n" | "\n" | "\r" | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) {
      if (seen) {
        newline = char === "\n" ? "\n" : text[i + 1] === "\n" ? "\r\n" : "\r";
        break;
      }
    } else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
    if (char.trim() !== "") seen = true;
  }
  let delimiter: string = DELIMITERS[0];
  for (const candidate of DELIMITERS) if (counts.get(candidate)! > counts.get(delimiter)!) delimiter = candidate;
  return { delimiter, newline };
}

/** A problem as the page lists it: "Row 4, price: "abc" is not a price." */
export function problemText(problem: CsvRowProblem): string {
  return problem.column ? `Row ${problem.row}, ${problem.column}: ${problem.message}` : `Row ${problem.row} ${problem.message}`;
}
