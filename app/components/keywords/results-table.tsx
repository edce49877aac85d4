import type { KeywordTerm } from "../../../contracts/growth/keywords.ts";
import { changeText, sourcesText, trendTypesText, type SortDirection, type SortKey } from "../../lib/keyword-research.ts";

const COLUMNS: Array<{ key: SortKey | null; label: string; numeric?: boolean; detail?: boolean }> = [
  { key: "term", label: "Keyword" },
  { key: null, label: "Found as", detail: true },
  { key: null, label: "Pinterest trend lists", detail: true },
  { key: "weeklyChange", label: "Last week", numeric: true },
  { key: "monthlyChange", label: "Last month", numeric: true },
  { key: "yearlyChange", label: "Last year", numeric: true },
];

/**
 * The research results: a checkbox per term (what the chart, copy and "Use as AI
 * keywords" act on), and the change of searches over a week, a month and a year.
 * Column headings sort (aria-sort says how); the table scrolls sideways on a phone.
 */
export function ResultsTable(props: {
  id: string;
  caption: string;
  terms: KeywordTerm[];
  chosen: ReadonlySet<string>;
  onChoose(term: string, chosen: boolean): void;
  onChooseAll(chosen: boolean): void;
  sort: { key: SortKey; direction: SortDirection };
  onSort(key: SortKey): void;
}) {
  const { terms, chosen, sort } = props;
  const allChosen = terms.length > 0 && terms.every((term) => chosen.has(term.term));
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on a phone: its scroll box must be reachable by keyboard (axe: scrollable-region-focusable).
    <div className="keywords__table-scroll" role="region" aria-label={props.caption} tabIndex={0}>
      <table className="keywords__table" id={props.id}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="keywords__choose">
              <input
                type="checkbox"
                aria-label={allChosen ? "Unchoose all terms shown" : "Choose all terms shown"}
                checked={allChosen}
                onChange={(event) => props.onChooseAll(event.target.checked)}
              />
            </th>
            {COLUMNS.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.numeric ? "keywords__number" : column.detail ? "keywords__detail" : undefined}
                aria-sort={column.key && column.key === sort.key ? sort.direction : undefined}
              >
                {column.key ? (
                  <button type="button" className="keywords__sort" onClick={() => props.onSort(column.key!)}>
                    {column.label}
                    <span aria-hidden="true" className="keywords__sort-mark">
                      {column.key === sort.key ? (sort.direction === "ascending" ? "\u25B2" : "\u25BC") : "\u21C5"}
                    </span>
                  </button>
                ) : (
                  column.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {terms.map((term) => (
            <tr key={term.term} className={chosen.has(term.term) ? "keywords__row--chosen" : undefined}>
              <td className="keywords__choose">
                <input
                  type="checkbox"
                  aria-label={`Choose ${term.term}`}
                  checked={chosen.has(term.term)}
                  onChange={(event) => props.onChoose(term.term, event.target.checked)}
                />
              </td>
              <th scope="row" className="keywords__term">
                {term.term}
              </th>
              <td className="keywords__detail">{sourcesText(term)}</td>
              <td className="keywords__detail">{trendTypesText(term)}</td>
              {[term.weeklyChange, term.monthlyChange, term.yearlyChange].map((change, index) => (
                <td
                  key={index}
                  className={`keywords__number ${change === null ? "keywords__none" : change > 0 ? "keywords__up" : change < 0 ? "keywords__down" : ""}`}
                >
                  {changeText(change)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
