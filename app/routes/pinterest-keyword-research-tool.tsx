import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { KEYWORD_TRIAL_USED, KeywordResearchQuery, type KeywordResearch } from "../../contracts/growth/keywords.ts";
import { PINTEREST_TREND_REGION_CODES, PINTEREST_TREND_REGIONS, type PinterestTrendRegion } from "../../contracts/pinterest/pinterest-trends.ts";
import { InterestChart, MAX_CHARTED_TERMS } from "../components/keywords/interest-chart.tsx";
import { ResultsTable } from "../components/keywords/results-table.tsx";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { useToast } from "../components/shell/toast.tsx";
import { Spinner } from "../components/spinner.tsx";
import { ApiError } from "../lib/api-client.ts";
import { useAuth } from "../lib/auth.tsx";
import {
  csvFileName,
  fetchKeywordResearch,
  filterTerms,
  sendAsAiKeywords,
  sortTerms,
  SOURCE_FILTERS,
  termsCsv,
  type SortDirection,
  type SortKey,
  type SourceFilter,
} from "../lib/keyword-research.ts";
import accountStyles from "../styles/account.css?url";
import keywordStyles from "../styles/keywords.css?url";
import { firstError, validateInput } from "../lib/forms.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: keywordStyles },
];

export const meta: MetaFunction = () => [
  { title: "Free Pinterest keyword research tool | Pinboard Studio" },
  {
    name: "description",
    content:
      "Find what people search for on Pinterest: suggested and related keywords with their weekly, monthly and yearly trends, by region. Chart them, export them, and use them in your pins.",
  },
];

type Status = { state: "idle" } | { state: "loading"; keyword: string } | { state: "error"; message: string };

/**
 * /pinterest-keyword-research-tool (spec section 2, issue 19): a seed keyword and a
 * region give Pinterest's suggested and related terms with their trends; terms
 * can be charted, copied, exported as CSV and sent to /generate as AI keywords.
 * Visitors get one search (the server counts it); more needs an account.
 */
export default function KeywordResearchPage() {
  const { user } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const ids = { keyword: useId(), region: useId(), error: useId(), table: useId(), filter: useId(), source: useId() };
  const [keyword, setKeyword] = useState("");
  const [region, setRegion] = useState<PinterestTrendRegion>("US");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const [result, setResult] = useState<KeywordResearch | null>(null);
  const [trialUsed, setTrialUsed] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({ key: "monthlyChange", direction: "descending" });
  const [filterText, setFilterText] = useState("");
  const [source, setSource] = useState<SourceFilter>("all");
  const [sending, setSending] = useState(false);
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  // A link with ?keyword=&region= (a trend alert's e-mail) fills the form, and searches at once for a
  // signed-in user (a visitor's one try is theirs to spend).
  const [searchParams] = useSearchParams();
  const linked = useRef(linkedQuery(searchParams));
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the user is known; runSearch reads only its arguments and setters.
  useEffect(() => {
    const query = linked.current;
    if (!query) return;
    setKeyword(query.keyword);
    setRegion(query.region);
    if (!user) return;
    linked.current = null;
    void runSearch(query.keyword, query.region);
  }, [user]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    void runSearch(keyword, region);
  };

  const runSearch = async (keyword: string, region: string) => {
    const parsed = validateInput(KeywordResearchQuery, { keyword, region });
    if (parsed.errors) {
      setFieldError(firstError(parsed.errors));
      return;
    }
    setFieldError(null);
    setStatus({ state: "loading", keyword: parsed.output.keyword });
    // Marks for bench/keywords.ts: from the press to the answer, and on to the chart drawn.
    performance.mark("keywords:search-start");
    try {
      const answer = await fetchKeywordResearch(parsed.output.keyword, parsed.output.region);
      performance.mark("keywords:answer");
      setResult(answer);
      setChosen(new Set([answer.keyword]));
      setFilterText("");
      setSource("all");
      setStatus({ state: "idle" });
      if (answer.trialSearchesLeft === 0) setTrialUsed(true);
      requestAnimationFrame(() => resultsHeading.current?.focus());
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && !user) {
        setTrialUsed(true);
        setStatus({ state: "error", message: KEYWORD_TRIAL_USED });
        return;
      }
      const message = error instanceof ApiError ? error.message : "We could not reach the server. Please check your connection and try again.";
      if (error instanceof ApiError && error.field === "keyword") setFieldError(message);
      setStatus({ state: "error", message });
      toast({ title: "Keyword research failed", description: message, kind: "error" });
    }
  };

  const shown = useMemo(
    () => (result ? sortTerms(filterTerms(result.terms, filterText, source), sort.key, sort.direction) : []),
    [result, filterText, source, sort],
  );
  const chosenTerms = useMemo(() => (result ? result.terms.filter((term) => chosen.has(term.term)) : []), [result, chosen]);
  const charted = useMemo(
    () =>
      chosenTerms
        .filter((term) => term.series !== null)
        .slice(0, MAX_CHARTED_TERMS)
        .map((term) => ({ term: term.term, values: term.series! })),
    [chosenTerms],
  );

  const choose = (term: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(term);
      else next.delete(term);
      return next;
    });
  const chooseAll = (on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      for (const term of shown) {
        if (on) next.add(term.term);
        else next.delete(term.term);
      }
      return next;
    });
  const sortBy = (key: SortKey) =>
    setSort((current) => ({
      key,
      direction: current.key === key && current.direction === "descending" ? "ascending" : key === "term" && current.key !== key ? "ascending" : "descending",
    }));

  const chosenWords = (count: number) => `${count} keyword${count === 1 ? "" : "s"}`;

  const copyChosen = async () => {
    try {
      await navigator.clipboard.writeText(chosenTerms.map((term) => term.term).join("\n"));
      toast({ title: `Copied ${chosenWords(chosenTerms.length)} to the clipboard.`, kind: "success" });
    } catch {
      toast({ title: "Your browser did not let us copy. Select the keywords in the table and copy them by hand.", kind: "error" });
    }
  };

  const downloadCsv = () => {
    if (!result) return;
    const blob = new Blob([termsCsv(shown, result.weeks)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const anchor = document.createElement("a");
    anchor.href = url;
    anchor.download = csvFileName(result.keyword, result.region);
    document.body.appendChild(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toast({ title: `Downloaded ${chosenWords(shown.length)} as a CSV file.`, kind: "success" });
  };

  const sendToAiKeywords = async () => {
    if (!user) {
      toast({ title: "Sign up free to send keywords to the generator.", kind: "info" });
      setTrialUsed(true);
      return;
    }
    setSending(true);
    try {
      const answer = await sendAsAiKeywords(chosenTerms.map((term) => term.term));
      toast({ title: `${chosenWords(chosenTerms.length)} are now the AI keywords of your design settings "${answer.profileName}".`, kind: "success" });
      navigate("/generate");
    } catch (error) {
      toast({ title: `Unable to save design settings: ${error instanceof Error ? error.message : "please try again."}`, kind: "error" });
    } finally {
      setSending(false);
    }
  };

  const regionName = result ? PINTEREST_TREND_REGIONS[result.region] : "";
  const fetchedAt = result ? new Date(result.fetchedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "";
  const loading = status.state === "loading";

  return (
    <main className="page keywords">
      <h1>Pinterest keyword research tool</h1>
      <p className="lead">
        Type a keyword to see what people search for on Pinterest: popular searches that start with it, related terms, and how searches for each have moved over
        the last week, month and year in your region.
        {user ? null : " Try one search free; sign up to keep researching."}
      </p>

      <form className="keywords__form" onSubmit={search} noValidate aria-label="Keyword research">
        <div className={`field keywords__keyword${fieldError ? " field--invalid" : ""}`}>
          <label className="field__label" htmlFor={ids.keyword}>
            Keyword
          </label>
          <input
            id={ids.keyword}
            className="field__input"
            name="keyword"
            type="search"
            autoComplete="off"
            maxLength={100}
            placeholder="e.g. christmas nails"
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? ids.error : undefined}
          />
          {fieldError ? (
            <p className="field__error" id={ids.error}>
              {fieldError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.region}>
            Region
          </label>
          <select
            id={ids.region}
            className="field__input field__select"
            name="region"
            value={region}
            onChange={(event) => setRegion(event.target.value as PinterestTrendRegion)}
          >
            {PINTEREST_TREND_REGION_CODES.map((code) => (
              <option key={code} value={code}>
                {PINTEREST_TREND_REGIONS[code]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--primary keywords__submit" disabled={loading || (trialUsed && !user)}>
          {loading ? <Spinner /> : null}
          Research keyword
        </button>
      </form>

      {trialUsed && !user ? <LoginPrompt action="keep researching keywords" /> : null}

      <section className="keywords__results" aria-labelledby="keywords-results-title" aria-busy={loading}>
        {loading ? (
          <p className="keywords__progress" role="status">
            <Spinner size="large" />
            {` Asking Pinterest about \u201C${status.keyword}\u201D\u2026`}
          </p>
        ) : null}
        {status.state === "error" && !(trialUsed && !user) ? (
          <p className="keywords__error" role="alert">
            {status.message}
          </p>
        ) : null}
        {result ? (
          <>
            <h2 id="keywords-results-title" ref={resultsHeading} tabIndex={-1}>
              {`Keywords for \u201C${result.keyword}\u201D in ${regionName}`}
            </h2>
            <p className="keywords__meta">
              {`${result.terms.length} terms. Pinterest data from ${fetchedAt}${result.cached ? " (kept for a day, so repeat searches are instant)" : ""}.`}
            </p>

            <h3>Interest over time</h3>
            <p className="keywords__hint">
              {charted.length === 0
                ? "Choose terms with trend data in the table to chart them."
                : `Weekly searches over the last year for the chosen terms, each scaled so its busiest week is 100${chosenTerms.filter((term) => term.series).length > MAX_CHARTED_TERMS ? ` (the first ${MAX_CHARTED_TERMS} chosen are charted)` : ""}.`}
            </p>
            <InterestChart weeks={result.weeks} terms={charted} describedBy={ids.table} />

            <div className="keywords__actions" role="group" aria-label="What to do with the chosen keywords">
              <p className="keywords__chosen" aria-live="polite">
                {`${chosenWords(chosenTerms.length)} chosen`}
              </p>
              <button type="button" className="button button--ghost" disabled={chosenTerms.length === 0} onClick={copyChosen}>
                Copy to clipboard
              </button>
              <button type="button" className="button button--ghost" disabled={shown.length === 0} onClick={downloadCsv}>
                Download CSV
              </button>
              <button type="button" className="button button--primary" disabled={chosenTerms.length === 0 || sending} onClick={sendToAiKeywords}>
                {sending ? <Spinner /> : null}
                Use as AI keywords
              </button>
            </div>

            <div className="keywords__filters">
              <div className="field">
                <label className="field__label" htmlFor={ids.filter}>
                  Filter terms
                </label>
                <input
                  id={ids.filter}
                  className="field__input"
                  type="search"
                  value={filterText}
                  onChange={(event) => setFilterText(event.target.value)}
                  placeholder="words the term contains"
                />
              </div>
              <div className="field">
                <label className="field__label" htmlFor={ids.source}>
                  Show
                </label>
                <select
                  id={ids.source}
                  className="field__input field__select"
                  value={source}
                  onChange={(event) => setSource(event.target.value as SourceFilter)}
                >
                  {(Object.keys(SOURCE_FILTERS) as SourceFilter[]).map((key) => (
                    <option key={key} value={key}>
                      {SOURCE_FILTERS[key]}
                    </option>
                  ))}
                </select>
              </div>
            </div>

            {shown.length === 0 ? (
              <p className="keywords__hint">No term matches the filter.</p>
            ) : (
              <ResultsTable
                id={ids.table}
                caption={`${shown.length} of ${result.terms.length} terms; change in Pinterest searches`}
                terms={shown}
                chosen={chosen}
                onChoose={choose}
                onChooseAll={chooseAll}
                sort={sort}
                onSort={sortBy}
              />
            )}
            <p className="keywords__hint">
              Changes compare searches in the last week, month and year with the period before, in {regionName}. Pinterest shares trends for popular searches
              only: terms without them show &ldquo;no data&rdquo;. Write pins for them with the <Link to="/generate">pin generator</Link>.
            </p>
          </>
        ) : (
          <h2 id="keywords-results-title" className="visually-hidden">
            Results
          </h2>
        )}
      </section>
    </main>
  );
}

/** The search a link asks for (?keyword=&region=), when it is one the form can run. */
function linkedQuery(params: URLSearchParams): { keyword: string; region: PinterestTrendRegion } | null {
  const parsed = v.safeParse(KeywordResearchQuery, { keyword: params.get("keyword") ?? "", region: params.get("region") ?? "US" });
  return parsed.success ? { keyword: parsed.output.keyword, region: parsed.output.region } : null;
}
