import Papa from "papaparse";

/**
 * CSV files we hand to people, who open them in a spreadsheet (the admin's
 * redeem codes, the keyword research export). A cell whose text a spreadsheet
 * would run as a formula (=, +, -, @, or a tab, carriage return or line feed
 * first, leading spaces ignored) gets a ' in front: OWASP's rule against CSV
 * injection. Papa's own escapeFormulae misses a cell that starts with = and
 * spans lines, hence this pattern. Numbers stay numbers (Papa never escapes
 * them). The catalog feed is not one of these files: Pinterest reads it, and
 * a ' would show on the pin (docs/decisions/083-smaller-trust-fixes.md).
 */
export const FORMULA_START = /^[\s\u00a0]*[=+\-@]|^[\t\r\n]/;

export function csvForSpreadsheets(fields: readonly string[], data: readonly (readonly unknown[])[]): string {
  return Papa.unparse({ fields: [...fields], data: data.map((row) => [...row]) }, { escapeFormulae: FORMULA_START });
}
