import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useId, useState } from "react";
import { RSS_ITEMS_PER_DAY, type RssFeed, type RssFeedItem } from "../../../contracts/pinterest/rss.ts";
import { useAuth } from "../../lib/auth.tsx";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { formatInZone, GMT } from "../../lib/pinterest/times.ts";
import { checkRssFeed, createRssFeed, deleteRssFeed, fetchRssFeedItems, fetchRssFeeds, updateRssFeed } from "../../lib/rss/api.ts";
import { DialogActions } from "../dialog-actions.tsx";
import { LoadStatus } from "../load-status.tsx";
import { failureText, usePinterest, type Pinterest } from "../scheduling/use-pinterest.tsx";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { draftOf, RssFeedForm, type RssFeedDraft } from "./rss-feed-form.tsx";

/** /pinterest-rss-feeds (spec section 2, issue 18): logged out, the sign-in prompt. */
export function RssFeedsPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Pinterest RSS feeds" action="create RSS feeds that Pinterest publishes as pins" />;
  }
  return <RssFeeds />;
}

/** The cache keys of the RSS reads (app/lib/query.ts). */
const rssKeys = {
  /** RssFeed[]. */
  feeds: ["rss", "feeds"],
  /** A feed's latest pins (RssFeedItem[]), read again whenever a check has changed the feed. */
  items: (feed: RssFeed) => ["rss", "items", feed.id, feed.lastCheckedAt, feed.publishedCount],
} as const;

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? GMT.value;
const when = (iso: string) => formatInZone(Date.parse(iso), zone());

function bodyOf(draft: RssFeedDraft) {
  return {
    name: draft.name.trim(),
    sourceUrl: draft.sourceUrl.trim(),
    sourceKind: draft.sourceKind,
    pinterestProfileUsername: draft.pinterestProfileUsername,
    boardId: draft.board.boardId,
    boardName: draft.board.boardName,
    designSettings: draft.designSettings,
  };
}

function RssFeeds() {
  const pinterest = usePinterest();
  const toast = useToast();
  const cache = useApiCache();
  const feedsRead = useApiQuery<RssFeed[]>(rssKeys.feeds, () => fetchRssFeeds());
  const feeds = feedsRead.data ?? null;
  const failed = feedsRead.error && !feedsRead.isFetching ? `Unable to load your RSS feeds: ${failureText(feedsRead.error)}` : null;
  const [adding, setAdding] = useState(false);
  const setFeeds = useCallback((change: (list: RssFeed[]) => RssFeed[]) => cache.set<RssFeed[]>(rssKeys.feeds, (list) => change(list ?? [])), [cache]);

  const replace = useCallback((feed: RssFeed) => setFeeds((list) => list.map((known) => (known.id === feed.id ? feed : known))), [setFeeds]);
  const username = pinterest.activeProfile?.username ?? "";

  return (
    <main className="page rss-page">
      <header className="rss-page__header">
        <h1>Pinterest RSS feeds</h1>
        <p className="muted">
          Turn your blog's new posts into designed pins that Pinterest publishes by itself. Each feed reads your blog, draws a pin for every new post with your
          design, and serves them as an RSS feed for your Pinterest business account to claim. A pin costs 1 credit; an AI rewrite 0.5 credit per text.
        </p>
      </header>

      {pinterest.profiles.length === 0 ? (
        <section className="card rss-connect" aria-label="Connect Pinterest">
          <p>Connect a Pinterest business profile to choose the board your feed's pins go to.</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() =>
              void pinterest.connect().catch((error: unknown) => toast({ title: "Unable to open Pinterest", description: failureText(error), kind: "error" }))
            }
          >
            Connect Pinterest
          </button>
        </section>
      ) : adding ? (
        <section className="card rss-card" aria-labelledby="rss-new-heading">
          <h2 id="rss-new-heading">New RSS feed</h2>
          <RssFeedForm
            pinterest={pinterest}
            initial={draftOf(null, username)}
            submitLabel="Create feed"
            onCancel={() => setAdding(false)}
            onSubmit={async (draft) => {
              const feed = await createRssFeed(bodyOf(draft));
              setFeeds((list) => [feed, ...list]);
              setAdding(false);
              toast({
                title: `RSS feed "${feed.name}" created`,
                description: "Its first pins are drawn within the next few minutes, or now with Check now.",
                kind: "success",
              });
            }}
          />
        </section>
      ) : (
        <button type="button" className="button button--primary rss-page__add" onClick={() => setAdding(true)}>
          Add an RSS feed
        </button>
      )}

      {feeds === null ? (
        <LoadStatus failed={failed} onRetry={() => void feedsRead.refetch()} loading="Loading your RSS feeds…" />
      ) : feeds.length === 0 ? (
        <p className="muted">You have no RSS feeds yet.</p>
      ) : (
        <ul className="rss-list" aria-label="Your RSS feeds">
          {feeds.map((feed) => (
            <li key={feed.id}>
              <FeedCard
                feed={feed}
                pinterest={pinterest}
                onChanged={replace}
                onDeleted={() => setFeeds((list) => list.filter((known) => known.id !== feed.id))}
              />
            </li>
          ))}
        </ul>
      )}
      {pinterest.reauthorizeDialog}
    </main>
  );
}

function statusOf(feed: RssFeed): { label: string; className: string } {
  if (feed.pausedReason) return { label: "Paused", className: "badge badge--warning" };
  if (!feed.isEnabled) return { label: "Off", className: "badge badge--neutral" };
  return { label: "On", className: "badge badge--success" };
}

function FeedCard({ feed, pinterest, onChanged, onDeleted }: { feed: RssFeed; pinterest: Pinterest; onChanged(feed: RssFeed): void; onDeleted(): void }) {
  const id = useId();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  /** The switch's new position while it is saved. */
  const [switching, setSwitching] = useState<boolean | null>(null);
  const [checking, setChecking] = useState(false);
  // The pins shown stay while those of a newer check are read.
  const itemsRead = useApiQuery<RssFeedItem[]>(rssKeys.items(feed), () => fetchRssFeedItems(feed.id), { placeholderData: (previous) => previous });
  const items = itemsRead.data ?? null;
  const itemsFailed = itemsRead.error && !itemsRead.isFetching ? `Unable to load the feed's pins: ${failureText(itemsRead.error)}` : null;
  const status = statusOf(feed);

  async function toggle(on: boolean) {
    setSwitching(on);
    try {
      const updated = await updateRssFeed(feed.id, { isEnabled: on });
      onChanged(updated);
      toast({ title: on ? `"${feed.name}" is on` : `"${feed.name}" is off`, kind: "success" });
    } catch (error) {
      toast({ title: on ? "Unable to switch the feed on" : "Unable to switch the feed off", description: failureText(error), kind: "error" });
    } finally {
      setSwitching(null);
    }
  }

  async function checkNow() {
    setChecking(true);
    try {
      const { check, rssFeed } = await checkRssFeed(feed.id);
      // The checked feed's new state is a new key for its pins: they are read again.
      onChanged(rssFeed);
      if (check.error) toast({ title: "We could not read your blog", description: check.error, kind: "error" });
      else if (check.paused) toast({ title: "The feed is paused", description: "You ran out of pin credits.", kind: "error" });
      else
        toast({
          title: check.added === 0 ? "No new posts" : `${check.added} new ${check.added === 1 ? "pin" : "pins"} in the feed`,
          description: check.waiting > 0 ? `${check.waiting} more ${check.waiting === 1 ? "post waits" : "posts wait"} for the next check.` : undefined,
          kind: "success",
        });
    } catch (error) {
      toast({ title: "Unable to check the feed", description: failureText(error), kind: "error" });
    } finally {
      setChecking(false);
    }
  }

  async function copyAddress() {
    try {
      await navigator.clipboard.writeText(feed.publicUrl);
      toast({ title: "Feed address copied", kind: "success" });
    } catch {
      toast({ title: "Unable to copy", description: "Select the address and copy it yourself.", kind: "error" });
    }
  }

  return (
    <article className="card rss-card" aria-labelledby={`${id}-name`}>
      <header className="rss-card__header">
        <h2 id={`${id}-name`}>{feed.name}</h2>
        <span className={status.className}>{status.label}</span>
        <label className="rss-switch">
          <input
            type="checkbox"
            // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox: its checked state is the switch's, aria-checked would only repeat it.
            role="switch"
            checked={switching ?? (feed.isEnabled && !feed.pausedReason)}
            disabled={switching !== null}
            aria-busy={switching !== null}
            onChange={(event) => void toggle(event.target.checked)}
          />
          <span>Feed on</span>
        </label>
      </header>

      {feed.pausedMessage ? (
        <p className="notice notice--error" role="status">
          {feed.pausedMessage}
        </p>
      ) : null}
      {feed.lastError ? (
        <p className="notice notice--error">
          We could not read your blog: {feed.lastError}
          <span className="notice__detail">Check the address below, then use Check now.</span>
        </p>
      ) : null}

      <dl className="rss-card__facts">
        <div>
          <dt>Source</dt>
          <dd>
            <a href={feed.sourceUrl} rel="noopener noreferrer" target="_blank">
              {feed.sourceUrl}
            </a>{" "}
            ({feed.sourceKind === "sitemap" ? "sitemap" : "RSS or Atom feed"})
          </dd>
        </div>
        <div>
          <dt>Board</dt>
          <dd>
            {feed.boardName} on {feed.pinterestProfileUsername}
          </dd>
        </div>
        <div>
          <dt>Pins</dt>
          <dd>
            {feed.publishedCount} in the feed; {feed.addedToday} added in the last 24 hours (at most {RSS_ITEMS_PER_DAY} a day)
          </dd>
        </div>
        <div>
          <dt>Last checked</dt>
          <dd>{feed.lastCheckedAt ? when(feed.lastCheckedAt) : "Not yet: the first check runs within a few minutes."}</dd>
        </div>
      </dl>

      <div className="field">
        <label className="field__label" htmlFor={`${id}-address`}>
          Public feed address (give it to Pinterest)
        </label>
        <div className="rss-card__address">
          <input id={`${id}-address`} className="field__input" readOnly value={feed.publicUrl} onFocus={(event) => event.target.select()} />
          <button type="button" className="button button--ghost" onClick={() => void copyAddress()}>
            Copy address
          </button>
        </div>
      </div>

      <details className="rss-card__steps">
        <summary>How to claim this feed in Pinterest</summary>
        <ol>
          <li>
            Sign in to Pinterest with your business account ({feed.pinterestProfileUsername}). A personal account cannot publish from a feed: convert it in
            Settings → Account management.
          </li>
          <li>
            Claim your blog's website if you have not: Settings → Claimed accounts → Websites → Claim, then add the meta tag or file Pinterest gives you to your
            blog.
          </li>
          <li>Open Settings → Bulk create Pins, and choose Connect RSS feed (Auto-publish).</li>
          <li>Paste the public feed address above, choose the board {feed.boardName}, and save.</li>
          <li>Pinterest then reads the feed on its own (about once a day) and publishes its new pins to that board, up to {RSS_ITEMS_PER_DAY} a day.</li>
        </ol>
      </details>

      <div className="rss-card__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void checkNow()}
          disabled={checking || !feed.isEnabled || Boolean(feed.pausedReason)}
        >
          {checking ? <Spinner label="Checking your blog" /> : null} {checking ? "Checking…" : "Check now"}
        </button>
        <button type="button" className="button button--ghost" onClick={() => setEditing((open) => !open)} aria-expanded={editing}>
          Edit
        </button>
        <DeleteFeed feed={feed} onDeleted={onDeleted} />
      </div>

      {editing ? (
        <section className="rss-card__edit" aria-label={`Edit ${feed.name}`}>
          <RssFeedForm
            pinterest={pinterest}
            initial={draftOf(feed, feed.pinterestProfileUsername)}
            submitLabel="Save changes"
            onCancel={() => setEditing(false)}
            onSubmit={async (draft) => {
              onChanged(await updateRssFeed(feed.id, bodyOf(draft)));
              setEditing(false);
              toast({ title: "RSS feed saved", kind: "success" });
            }}
          />
        </section>
      ) : null}

      <section className="rss-card__items" aria-label={`Latest pins of ${feed.name}`}>
        <h3>Latest pins</h3>
        {items === null ? (
          <LoadStatus failed={itemsFailed} onRetry={() => void itemsRead.refetch()} loading="Loading the feed's pins…" />
        ) : items.length === 0 ? (
          <p className="muted">No pins yet. New posts of your blog appear here with their pins after a check.</p>
        ) : (
          <ul className="rss-items">
            {items.map((item) => (
              <li key={item.id} className="rss-item">
                {item.imageUrl ? (
                  <img src={item.imageUrl} alt={`Pin for ${item.title}`} width={200} height={300} loading="lazy" />
                ) : (
                  <div className="rss-item__placeholder">{item.status === "pending" ? "Drawing…" : "No pin"}</div>
                )}
                <p className="rss-item__title">
                  <a href={item.link} rel="noopener noreferrer" target="_blank">
                    {item.title || item.link}
                  </a>
                </p>
                <p className="muted small">Added {when(item.createdAt)}</p>
                {item.status === "failed" && item.error ? <p className="field__error">{item.error}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

function DeleteFeed({ feed, onDeleted }: { feed: RssFeed; onDeleted(): void }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <Dialog.Trigger asChild>
        <button type="button" className="button button--danger">
          Delete
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">Delete "{feed.name}"?</Dialog.Title>
          <Dialog.Description className="dialog__text">
            Its public address stops working and its pins are deleted. Pins Pinterest already published stay on Pinterest.
          </Dialog.Description>
          <DialogActions>
            <button
              type="button"
              className="button button--danger"
              disabled={pending}
              onClick={async () => {
                setPending(true);
                try {
                  await deleteRssFeed(feed.id);
                  setOpen(false);
                  onDeleted();
                  toast({ title: `RSS feed "${feed.name}" deleted`, kind: "success" });
                } catch (error) {
                  toast({ title: "Unable to delete the feed", description: failureText(error), kind: "error" });
                } finally {
                  setPending(false);
                }
              }}
            >
              {pending ? <Spinner label="Deleting" /> : null} Delete feed
            </button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
