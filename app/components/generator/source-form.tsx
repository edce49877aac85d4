import { useCallback, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from "react";
import { MAX_URLS_PER_BATCH, type Source } from "../../../contracts/content/scrape.ts";
import type { PinSource } from "../../../contracts/pinterest/analytics.ts";
import { normalizeSourceUrl } from "../../../workers/scrape/url.ts";
import { getSitemapPostURLs, reasonOf, scrapeFeed, scrapeWebsite, scrapeWebsites } from "../../lib/generator/api.ts";
import { urlTextOf } from "../../../workers/domain/generate.ts";
import { generateLabel } from "../../lib/generator/pin-count.ts";
import { chunks } from "../../lib/generator/tasks.ts";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { PostChoiceDialog, type ChoosablePost } from "./post-choice-dialog.tsx";
import { MARKS, type Generator } from "./use-generator.ts";

type SourceKind = "website" | "sitemap" | "feed" | "product";

/** Where a generation's pins say they came from (issue 41): a typed-in product is "other" (not a shop's). */
const PIN_SOURCE_OF: Record<"page" | "feed" | "product", PinSource> = { page: "blog", feed: "feed", product: "other" };

/** Posts found in a sitemap or a feed, waiting for the user to choose. */
interface Choice {
  kind: "sitemap" | "feed";
  heading: string;
  intro: string;
  posts: ChoosablePost[];
  /** A feed's items are read already: generating needs no second read. */
  sources?: Source[];
}

/** The most titles the chooser reads from the pages themselves (sitemaps whose addresses say nothing). */
const MAX_TITLES_READ = 200;

const KINDS: { id: SourceKind; label: string; hint: string; placeholder: string }[] = [
  { id: "website", label: "Website", hint: "Paste a blog post or web page URL", placeholder: "https://yourblog.com/your-post" },
  { id: "sitemap", label: "Sitemap", hint: "Find the posts of a whole site from its sitemap", placeholder: "https://yourblog.com" },
  { id: "feed", label: "RSS feed", hint: "Paste an RSS or Atom feed URL: each item becomes a pin", placeholder: "https://yourblog.com/feed.xml" },
  { id: "product", label: "Product", hint: "Describe a product: title, description, images and link", placeholder: "" },
];

/** Where the pins come from (spec section 2): a web page, a sitemap, a feed or a product. */
export function SourceForm({ generator, disabled }: { generator: Generator; disabled: boolean }) {
  const { toast } = useToast();
  const [kind, setKind] = useState<SourceKind>("website");
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [choice, setChoice] = useState<Choice | null>(null);
  /** Pages read while looking for titles: generating from them needs no second read. */
  const read = useRef(new Map<string, Source>());
  const inputId = useId();
  const tabs = useRef<HTMLDivElement>(null);
  const info = KINDS.find((candidate) => candidate.id === kind)!;

  function checkedUrl(): string | null {
    const checked = normalizeSourceUrl(url, { field: "URL" });
    if (!checked.ok) {
      setError(checked.error);
      return null;
    }
    setError(null);
    return checked.url;
  }

  async function run(task: () => Promise<void>) {
    setPending(true);
    try {
      await task();
    } catch (failure) {
      setError(reasonOf(failure));
    } finally {
      setPending(false);
      generator.setBusy(null);
    }
  }

  async function generateFrom(sources: Source[], what: "page" | "feed" | "product") {
    if (sources.length === 0) {
      setError(`No posts were found in this ${what}.`);
      return;
    }
    const count = await generator.addSources(sources, "new", { from: PIN_SOURCE_OF[what] });
    toast({ title: count === 1 ? "1 pin generated" : `${count} pins generated`, kind: "success" });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const target = checkedUrl();
    if (!target) return;
    if (kind === "website") {
      void run(async () => {
        generator.setBusy({ label: "Reading the page" });
        const { source } = await scrapeWebsite(target);
        performance.mark(MARKS.scrapeResult);
        await generateFrom([source], "page");
      });
    } else if (kind === "feed") {
      void run(async () => {
        generator.setBusy({ label: "Reading the feed" });
        const { sources, feedTitle } = await scrapeFeed(target);
        performance.mark(MARKS.scrapeResult);
        if (sources.length <= 1) return void (await generateFrom(sources, "feed"));
        setChoice({
          kind: "feed",
          heading: "Posts found in the feed",
          intro: `${sources.length} posts in ${feedTitle || "this feed"}.`,
          posts: sources.map((source) => ({ url: source.url, title: source.title, date: source.date })),
          sources,
        });
      });
    } else if (kind === "sitemap") {
      void run(async () => {
        generator.setBusy({ label: "Finding posts in the sitemap" });
        const answer = await getSitemapPostURLs(target);
        if (answer.allPostURLs.length === 0) setError("No post URLs were found in this site's sitemap.");
        else {
          read.current = new Map();
          setChoice({
            kind: "sitemap",
            heading: "Posts found in the sitemap",
            intro: `${answer.posts.length} posts listed in ${answer.usedSitemap}.`,
            // A title guessed from the address shows, greyed, until the page itself is read (issue 40 point 11).
            posts: answer.posts.map((post) =>
              post.titleGuessed
                ? { url: post.url, title: "", guess: post.title || undefined, date: post.lastmod }
                : { url: post.url, title: post.title, date: post.lastmod },
            ),
          });
        }
      });
    }
  }

  /** Reads the pages of a sitemap whose addresses give no title, 25 at a time, keeping what it read. */
  const readTitles = useCallback((urls: string[], onTitles: (titles: Map<string, string>) => void) => {
    let stopped = false;
    void (async () => {
      const batches = chunks(urls.slice(0, MAX_TITLES_READ), MAX_URLS_PER_BATCH);
      for (const batch of batches) {
        if (stopped) return;
        const titles = new Map<string, string>(batch.map((url) => [url, ""]));
        try {
          const answer = await scrapeWebsites(batch);
          for (const source of answer.sources) {
            read.current.set(source.url, source);
            titles.set(source.url, source.title);
          }
        } catch {
          // The titles stay unknown; generating reads the pages again.
        }
        if (!stopped) onTitles(titles);
      }
      if (!stopped) onTitles(new Map(urls.slice(MAX_TITLES_READ).map((url) => [url, ""])));
    })();
    return () => {
      stopped = true;
    };
  }, []);

  async function generateFromChoice(current: Choice, urls: string[]) {
    setChoice(null);
    if (current.sources) {
      const wanted = new Set(urls);
      await run(() =>
        generateFrom(
          current.sources!.filter((source) => wanted.has(source.url)),
          "feed",
        ),
      );
      return;
    }
    await run(async () => {
      const { failures, generated } = await generator.generateFromUrls(urls, read.current);
      if (generated > 0) toast({ title: `Pins generated from ${generated} of ${urls.length} posts`, kind: "success" });
      if (failures.length > 0) {
        toast({
          title: `${failures.length} posts could not be read`,
          description: failures
            .slice(0, 3)
            .map((f) => `${f.url}: ${f.error}`)
            .join(" "),
          kind: "error",
        });
      }
    });
  }

  function onTabKey(event: KeyboardEvent) {
    const index = KINDS.findIndex((candidate) => candidate.id === kind);
    const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: KINDS.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = KINDS[(target + KINDS.length) % KINDS.length];
    setKind(next.id);
    setError(null);
    tabs.current?.querySelector<HTMLButtonElement>(`[data-kind="${next.id}"]`)?.focus();
  }

  return (
    <section className="source-form" aria-label="Generate pins">
      <div className="tabs source-form__tabs" role="tablist" aria-label="Generate from" ref={tabs} onKeyDown={onTabKey}>
        {KINDS.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            data-kind={candidate.id}
            className="tabs__tab"
            aria-selected={candidate.id === kind}
            tabIndex={candidate.id === kind ? 0 : -1}
            onClick={() => {
              setKind(candidate.id);
              setError(null);
            }}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      {kind === "product" ? (
        <ProductForm disabled={disabled || pending} onGenerate={(source) => void run(() => generateFrom([source], "product"))} />
      ) : (
        <form className="source-form__row" onSubmit={onSubmit} noValidate>
          <label className="visually-hidden" htmlFor={inputId}>
            {info.hint}
          </label>
          <input
            id={inputId}
            className="field__input source-form__input"
            type="url"
            inputMode="url"
            value={url}
            placeholder={info.placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${inputId}-hint`}
            onChange={(event) => setUrl(event.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={disabled || pending}>
            {pending ? <Spinner /> : null}
            {kind === "sitemap" ? "Find posts" : "Generate"}
          </button>
        </form>
      )}
      <p id={`${inputId}-hint`} className={error ? "field__error source-form__message" : "field__hint source-form__message"} role={error ? "alert" : undefined}>
        {error ?? info.hint}
      </p>
      {choice ? (
        <PostChoiceDialog
          heading={choice.heading}
          intro={choice.intro}
          posts={choice.posts}
          label={(count) => generateLabel(count, generator.settings, generator.pool.length)}
          onCancel={() => setChoice(null)}
          onGenerate={(urls) => void generateFromChoice(choice, urls)}
          readTitles={choice.kind === "sitemap" ? readTitles : undefined}
        />
      ) : null}
    </section>
  );
}

function ProductForm({ disabled, onGenerate }: { disabled: boolean; onGenerate(source: Source): void }) {
  const id = useId();
  const [fields, setFields] = useState({ title: "", description: "", images: "", url: "", price: "" });
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const set = (field: keyof typeof fields) => (event: { target: { value: string } }) => setFields((all) => ({ ...all, [field]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!fields.title.trim()) return setError({ field: "title", message: "Please enter the product's title" });
    const link = normalizeSourceUrl(fields.url, { field: "Product URL" });
    if (!link.ok) return setError({ field: "url", message: link.error });
    const images: string[] = [];
    for (const line of fields.images
      .split(/\n|,/)
      .map((part) => part.trim())
      .filter(Boolean)) {
      const image = normalizeSourceUrl(line, { field: "Image URL" });
      if (!image.ok) return setError({ field: "images", message: image.error });
      images.push(image.url);
    }
    setError(null);
    onGenerate({
      url: link.url,
      title: fields.title.trim(),
      description: fields.description.trim(),
      allImages: images,
      date: "",
      siteName: urlTextOf(link.url),
      ...(fields.price.trim() ? { price: fields.price.trim() } : {}),
    });
  }

  const field = (name: keyof typeof fields, label: string, input: ReactElement) => (
    <div className={error?.field === name ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      {input}
      {error?.field === name ? (
        <p className="field__error" role="alert">
          {error.message}
        </p>
      ) : null}
    </div>
  );

  return (
    <form className="product-form" onSubmit={submit} noValidate>
      {field("title", "Product title", <input id={`${id}-title`} className="field__input" value={fields.title} maxLength={500} onChange={set("title")} />)}
      {field("url", "Product URL", <input id={`${id}-url`} className="field__input" type="url" value={fields.url} maxLength={2048} onChange={set("url")} />)}
      {field(
        "price",
        "Price (optional)",
        <input id={`${id}-price`} className="field__input" value={fields.price} maxLength={40} placeholder="$24" onChange={set("price")} />,
      )}
      {field(
        "description",
        "Description",
        <textarea id={`${id}-description`} className="field__input" rows={3} value={fields.description} maxLength={2000} onChange={set("description")} />,
      )}
      {field(
        "images",
        "Image URLs (one per line)",
        <textarea
          id={`${id}-images`}
          className="field__input"
          rows={3}
          value={fields.images}
          onChange={set("images")}
          placeholder="https://yourshop.com/images/product.jpg"
        />,
      )}
      <button type="submit" className="button button--primary" disabled={disabled}>
        Generate
      </button>
    </form>
  );
}
