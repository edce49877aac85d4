/**
 * The tables of a user's UserLedger object (docs/decisions/084-user-ledger.md): the per-pin and per-item records
 * that left D1 (and the user's drafts and media library rows), with the same columns, indexes and triggers they had there (migrations 0003, 0007, 0011, 0034, 0038,
 * 0039, 0042), so one SQL text serves both the move and every reader. `user_id` stays a column: every row of
 * an object holds its one user, and keeping it keeps each statement the same as it was in D1.
 *
 * Each entry of LEDGER_SCHEMA runs once, in order, the first time an object wakes after it was added
 * (`ledger_meta.schema_version` counts how many ran).
 */
const TOTALS_DELTA = (row: "NEW" | "OLD", sign: "+" | "-") => `UPDATE credit_month_totals SET
    grants = grants ${sign} CASE WHEN period_start <= ${row}.created_at AND ${row}.amount > 0 AND ${row}.reference NOT LIKE 'reversal:%' AND ${row}.reference NOT LIKE 'admin-grant:%' THEN ${row}.amount ELSE 0 END,
    paid_grants = paid_grants ${sign} CASE WHEN period_start <= ${row}.created_at AND ${row}.amount > 0 AND ${row}.reference NOT LIKE 'reversal:%' AND ${row}.reference NOT LIKE 'admin-grant:%' AND ${row}.reference NOT LIKE 'grant:free:%' THEN ${row}.amount ELSE 0 END,
    admin_grants = admin_grants ${sign} CASE WHEN ${row}.amount > 0 AND ${row}.reference LIKE 'admin-grant:%' THEN ${row}.amount ELSE 0 END,
    spends = spends ${sign} CASE WHEN ${row}.amount < 0 OR ${row}.reference LIKE 'reversal:%' THEN ${row}.amount ELSE 0 END
  WHERE user_id = ${row}.user_id AND period_start > ${row}.created_at - 2764800000 AND period_start <= ${row}.created_at + 2764800000
    AND spends_from <= ${row}.created_at AND period_end > ${row}.created_at`;

export const LEDGER_SCHEMA: string[][] = [
  [
    `CREATE TABLE ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE credit_ledger (
      id TEXT PRIMARY KEY NOT NULL,
      user_id TEXT NOT NULL,
      amount REAL NOT NULL,
      category TEXT NOT NULL,
      reason TEXT NOT NULL,
      reference TEXT NOT NULL,
      created_at INTEGER DEFAULT (unixepoch('subsec') * 1000) NOT NULL)`,
    `CREATE UNIQUE INDEX credit_ledger_user_reference ON credit_ledger (user_id, reference)`,
    `CREATE INDEX credit_ledger_user_created ON credit_ledger (user_id, created_at)`,
    `CREATE TABLE credit_month_totals (
      user_id TEXT NOT NULL,
      period_start INTEGER NOT NULL,
      period_end INTEGER NOT NULL,
      spends_from INTEGER NOT NULL,
      grants REAL DEFAULT 0 NOT NULL,
      paid_grants REAL DEFAULT 0 NOT NULL,
      admin_grants REAL DEFAULT 0 NOT NULL,
      spends REAL DEFAULT 0 NOT NULL,
      PRIMARY KEY (user_id, period_start, period_end),
      CHECK (period_end > period_start AND period_end - period_start <= 2764800000 AND spends_from <= period_start AND period_start - spends_from <= 2764800000))`,
    `CREATE TRIGGER credit_ledger_totals_insert AFTER INSERT ON credit_ledger BEGIN ${TOTALS_DELTA("NEW", "+")}; END`,
    `CREATE TRIGGER credit_ledger_totals_delete AFTER DELETE ON credit_ledger BEGIN ${TOTALS_DELTA("OLD", "-")}; END`,
    `CREATE TRIGGER credit_ledger_totals_update AFTER UPDATE OF user_id, amount, reference, created_at ON credit_ledger
      BEGIN ${TOTALS_DELTA("OLD", "-")}; ${TOTALS_DELTA("NEW", "+")}; END`,
    `CREATE TABLE pin_history (
      id TEXT PRIMARY KEY NOT NULL,
      user_id TEXT NOT NULL,
      action TEXT NOT NULL,
      category TEXT NOT NULL,
      credits REAL NOT NULL,
      title TEXT DEFAULT '' NOT NULL,
      description TEXT DEFAULT '' NOT NULL,
      url TEXT DEFAULT '' NOT NULL,
      image_url TEXT DEFAULT '' NOT NULL,
      media_type TEXT DEFAULT 'image' NOT NULL,
      board_id TEXT,
      board_name TEXT,
      pinterest_profile TEXT,
      pinterest_pin_id TEXT,
      reference TEXT NOT NULL,
      created_at INTEGER DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
      pin_id TEXT,
      scheduled_for INTEGER,
      posted_at INTEGER,
      public_at INTEGER,
      queue_state TEXT,
      queue_error TEXT,
      -- Pinterest's copy of the pin's image, and when our render was deleted (the page then shows Pinterest's).
      pinterest_image_url TEXT,
      render_deleted_at INTEGER)`,
    `CREATE UNIQUE INDEX pin_history_user_reference ON pin_history (user_id, reference)`,
    `CREATE INDEX pin_history_user_created ON pin_history (user_id, created_at)`,
    `CREATE INDEX pin_history_user_pin ON pin_history (user_id, pin_id)`,
    `CREATE INDEX pin_history_waiting ON pin_history (user_id, pinterest_profile) WHERE action = 'scheduled' AND posted_at IS NULL`,
    `CREATE TABLE pin_renders (
      media_key TEXT PRIMARY KEY NOT NULL,
      user_id TEXT NOT NULL,
      paid_at INTEGER,
      created_at INTEGER NOT NULL,
      -- When its pin was last posted (deleted 30 days later), which pin, and whether a repeating pin keeps it.
      posted_at INTEGER,
      pin_id TEXT,
      keep INTEGER NOT NULL DEFAULT 0)`,
    `CREATE INDEX pin_renders_user ON pin_renders (user_id)`,
    `CREATE INDEX pin_renders_created ON pin_renders (created_at)`,
    `CREATE INDEX pin_renders_unpaid ON pin_renders (created_at) WHERE paid_at IS NULL`,
    `CREATE INDEX pin_renders_posted ON pin_renders (posted_at) WHERE posted_at IS NOT NULL`,
    `CREATE TABLE idempotency_keys (
      user_id TEXT NOT NULL,
      operation TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      id TEXT NOT NULL,
      status TEXT NOT NULL,
      response TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (user_id, operation, key))`,
    `CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`,
    `CREATE TABLE drafts (
      id TEXT PRIMARY KEY NOT NULL,
      user_id TEXT NOT NULL,
      name TEXT NOT NULL,
      date TEXT NOT NULL,
      posts TEXT NOT NULL,
      post_count INTEGER NOT NULL,
      created_at INTEGER DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
      updated_at INTEGER NOT NULL)`,
    `CREATE INDEX drafts_user_updated ON drafts (user_id, updated_at)`,
    `CREATE TABLE user_media (
      id TEXT PRIMARY KEY NOT NULL,
      user_id TEXT NOT NULL,
      media_type TEXT NOT NULL,
      object_key TEXT NOT NULL,
      file_name TEXT NOT NULL,
      content_type TEXT NOT NULL,
      size INTEGER NOT NULL,
      width INTEGER,
      height INTEGER,
      font_family TEXT,
      source_format TEXT,
      created_at INTEGER DEFAULT (unixepoch('subsec') * 1000) NOT NULL)`,
    `CREATE INDEX user_media_user_type_created ON user_media (user_id, media_type, created_at)`,
    `CREATE INDEX user_media_user_created ON user_media (user_id, created_at)`,
  ],
];

/** The tables moved from D1, in the order they are copied (the month totals last: see move.ts). */
export const MOVED_TABLES = ["credit_ledger", "pin_history", "pin_renders", "idempotency_keys", "drafts", "user_media", "credit_month_totals"] as const;
export type MovedTable = (typeof MOVED_TABLES)[number];

/** Each moved table's columns, as in D1 (the copy names them, so a column order that differs cannot matter). */
export const MOVED_COLUMNS: Record<MovedTable, string[]> = {
  credit_ledger: ["id", "user_id", "amount", "category", "reason", "reference", "created_at"],
  credit_month_totals: ["user_id", "period_start", "period_end", "spends_from", "grants", "paid_grants", "admin_grants", "spends"],
  pin_history: [
    "id",
    "user_id",
    "action",
    "category",
    "credits",
    "title",
    "description",
    "url",
    "image_url",
    "media_type",
    "board_id",
    "board_name",
    "pinterest_profile",
    "pinterest_pin_id",
    "reference",
    "created_at",
    "pin_id",
    "scheduled_for",
    "posted_at",
    "public_at",
    "queue_state",
    "queue_error",
  ],
  pin_renders: ["media_key", "user_id", "paid_at", "created_at"],
  idempotency_keys: ["user_id", "operation", "key", "request_hash", "id", "status", "response", "created_at", "updated_at"],
  drafts: ["id", "user_id", "name", "date", "posts", "post_count", "created_at", "updated_at"],
  user_media: [
    "id",
    "user_id",
    "media_type",
    "object_key",
    "file_name",
    "content_type",
    "size",
    "width",
    "height",
    "font_family",
    "source_format",
    "created_at",
  ],
};
