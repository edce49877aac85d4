import { useId, useState } from "react";
import { MAX_PINS_PER_SOURCE } from "../../../contracts/content/design-settings.ts";
import {
  formatPrice,
  pageAllChosen,
  pageNumbers,
  pinCountOf,
  pinsOf,
  type Chosen,
  type PinCounts,
  type ProductItem,
} from "../../lib/products/chosen-products.ts";
import { Spinner } from "../spinner.tsx";

export type Paging =
  | { kind: "numbered"; page: number; pages: number; onPage(page: number): void }
  | { kind: "links"; page: number; hasPrevious: boolean; hasNext: boolean; onPrevious(): void; onNext(): void };

/**
 * A page of products as cards (picture, title, price, a checkbox and the pins
 * to make), "Select all on this page", and the pages: numbered, or previous
 * and next where the shop pages by links (Shopify).
 */
export function ProductGrid({
  items,
  total,
  loading,
  paging,
  chosen,
  pins,
  locale,
  onChoose,
  onChoosePage,
  onPins,
  emptyText,
}: {
  items: ProductItem[];
  total: number;
  loading: boolean;
  paging: Paging | null;
  chosen: Chosen;
  pins: PinCounts;
  locale: string | undefined;
  onChoose(item: ProductItem, on: boolean): void;
  onChoosePage(on: boolean): void;
  onPins(key: string, count: number): void;
  emptyText: string;
}) {
  const allOnPage = pageAllChosen(chosen, items);
  return (
    <div className="product-grid" aria-busy={loading}>
      <div className="product-grid__bar">
        <label className="check">
          <input type="checkbox" checked={allOnPage} disabled={loading || items.length === 0} onChange={() => onChoosePage(!allOnPage)} />
          Select all on this page
        </label>
        <span className="muted small">{total === 1 ? "1 product" : `${total.toLocaleString(locale)} products`}</span>
      </div>
      {loading ? (
        <div className="progress product-grid__loading">
          <p className="progress__label" id="products-loading-label">
            <Spinner label="Loading products" /> Loading products…
          </p>
          <div className="progress__track" role="progressbar" aria-labelledby="products-loading-label">
            <span className="progress__fill progress__fill--indeterminate" style={{ width: "30%" }} />
          </div>
        </div>
      ) : items.length === 0 ? (
        <p className="muted">{emptyText}</p>
      ) : (
        <ul className="product-cards" aria-label="Products">
          {items.map((item) => (
            <ProductCard
              key={item.key}
              item={item}
              checked={chosen.has(item.key)}
              pins={pinsOf(item, pins)}
              locale={locale}
              onChoose={onChoose}
              onPins={onPins}
            />
          ))}
        </ul>
      )}
      {paging && !loading ? <Pagination paging={paging} /> : null}
    </div>
  );
}

function ProductCard({
  item,
  checked,
  pins,
  locale,
  onChoose,
  onPins,
}: {
  item: ProductItem;
  checked: boolean;
  pins: number;
  locale: string | undefined;
  onChoose(item: ProductItem, on: boolean): void;
  onPins(key: string, count: number): void;
}) {
  const id = useId();
  const { listing } = item;
  const picture = listing.images[0];
  const price = formatPrice(listing.price, listing.currency, locale);
  // What is typed may be briefly invalid (emptied to type anew); a new count from outside replaces it, during render.
  const [typed, setTyped] = useState(String(pins));
  const [typedFor, setTypedFor] = useState(pins);
  if (typedFor !== pins) {
    setTypedFor(pins);
    setTyped(String(pins));
  }
  const invalid = pinCountOf(typed) === null;
  return (
    <li className={checked ? "product-card product-card--chosen" : "product-card"}>
      <div className="product-card__picture">
        {picture ? (
          <img src={picture.medium || picture.full} alt="" loading="lazy" decoding="async" />
        ) : (
          <span className="product-card__no-picture">No picture</span>
        )}
      </div>
      <div className="product-card__body">
        <label className="check product-card__check">
          <input type="checkbox" checked={checked} onChange={(event) => onChoose(item, event.target.checked)} aria-describedby={`${id}-price`} />
          <span className="product-card__title">{listing.title}</span>
        </label>
        <p className="product-card__price" id={`${id}-price`}>
          {price || <span className="muted">No price</span>}
        </p>
        {listing.categories.length > 0 ? <p className="product-card__categories muted small">{listing.categories.join(" · ")}</p> : null}
        <div className={invalid ? "field field--invalid product-card__pins" : "field product-card__pins"}>
          <label className="field__label small" htmlFor={`${id}-pins`}>
            Pins
          </label>
          <input
            id={`${id}-pins`}
            className="field__input"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_PINS_PER_SOURCE}
            value={typed}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${id}-pins-error` : undefined}
            aria-label={`Pins from ${listing.title}`}
            onChange={(event) => {
              setTyped(event.target.value);
              const count = pinCountOf(event.target.value);
              if (count !== null) onPins(item.key, count);
            }}
          />
          {invalid ? (
            <p className="field__error small" id={`${id}-pins-error`}>
              From 1 to {MAX_PINS_PER_SOURCE}
            </p>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function Pagination({ paging }: { paging: Paging }) {
  if (paging.kind === "links") {
    if (!paging.hasPrevious && !paging.hasNext) return null;
    return (
      <nav className="pagination" aria-label="Pages">
        <button type="button" className="button button--ghost" disabled={!paging.hasPrevious} onClick={paging.onPrevious}>
          Previous
        </button>
        <span className="pagination__current">Page {paging.page}</span>
        <button type="button" className="button button--ghost" disabled={!paging.hasNext} onClick={paging.onNext}>
          Next
        </button>
      </nav>
    );
  }
  if (paging.pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" className="button button--ghost" disabled={paging.page <= 1} onClick={() => paging.onPage(paging.page - 1)}>
        Previous
      </button>
      <ol className="pagination__pages">
        {pageNumbers(paging.page, paging.pages).map((page, index) =>
          page === "gap" ? (
            <li key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <button
                type="button"
                className="pagination__page"
                aria-current={page === paging.page ? "page" : undefined}
                aria-label={`Page ${page}`}
                onClick={() => paging.onPage(page)}
              >
                {page}
              </button>
            </li>
          ),
        )}
      </ol>
      <button type="button" className="button button--ghost" disabled={paging.page >= paging.pages} onClick={() => paging.onPage(paging.page + 1)}>
        Next
      </button>
    </nav>
  );
}
