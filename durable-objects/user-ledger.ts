import { DurableObject } from "cloudflare:workers";
import type { Env } from "../workers/env.ts";
import { moveFromD1, type MoveOutcome } from "./ledger/move.ts";
import { LedgerRetention } from "./ledger/retention.ts";
import { LEDGER_SCHEMA } from "./ledger/schema.ts";

/** One statement sent to a user's ledger: SQL text and its parameters; `raw` answers rows as arrays of values. */
export interface LedgerQuery {
  sql: string;
  params: SqlStorageValue[];
  raw?: boolean;
}

/** What one statement answered: its rows (objects, or arrays when raw) and the rows it changed (SQLite's changes()). */
export interface LedgerAnswer {
  rows: unknown[];
  changes: number;
}

/**
 * One per user (named by the user id): the records that grow per pin or per item (docs/decisions/084-user-ledger.md,
 * 058): the credit ledger with its month totals, the pin history, the pin renders and the idempotency keys. D1 keeps
 * what grows per user.
 *
 * Its request API is a statement batch (`query`): the worker's services (workers/ledger/) send SQL written for these
 * tables, and each batch runs as one transaction of this object, as a D1 batch ran in D1. So a spend, its history
 * entry and the render it unlocks are written together or not at all, and no other request runs between the
 * statements of a batch (an object runs one at a time). The object is never reached by anything but the worker.
 *
 * The first time it wakes it moves the user's rows from D1 (ledger/move.ts); nothing is answered before that is done.
 */
export class UserLedger extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private ready: Promise<void> | null = null;
  private userId: string | null = null;
  private readonly retention: LedgerRetention;
  /** When the alarm rings next, as this instance set or read it (undefined: not read yet). */
  private alarmAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.retention = new LedgerRetention(ctx.storage, env.MEDIA, env.APP_URL);
    ctx.blockConcurrencyWhile(async () => this.migrate());
  }

  private migrate() {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS ledger_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const version = Number(this.meta.get("schema_version") ?? "0");
    for (let step = version; step < LEDGER_SCHEMA.length; step++) {
      this.ctx.storage.transactionSync(() => {
        for (const statement of LEDGER_SCHEMA[step]) {
          if (statement.startsWith("CREATE TABLE ledger_meta")) continue;
          this.sql.exec(statement);
        }
        this.meta.set("schema_version", String(step + 1));
      });
    }
    this.userId = this.meta.get("user_id");
    this.retention.userId = this.userId;
  }

  readonly meta = {
    get: (key: string): string | null => this.sql.exec<{ value: string }>(`SELECT value FROM ledger_meta WHERE key = ?`, key).toArray()[0]?.value ?? null,
    set: (key: string, value: string) =>
      void this.sql.exec(`INSERT INTO ledger_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value),
  };

  /** The object belongs to one user: the first call names them, every later call must name the same one. */
  private async open(userId: string): Promise<void> {
    if (this.userId === null) {
      this.meta.set("user_id", userId);
      this.userId = userId;
      this.retention.userId = userId;
    } else if (this.userId !== userId) throw new Error(`UserLedger of ${this.userId} was asked for ${userId}`);
    if (!this.ready) {
      this.ready = this.ctx.blockConcurrencyWhile(async () => void (await moveFromD1(this.env.DB, this.sql, this.ctx.storage, this.meta, userId)));
      this.ready.catch(() => (this.ready = null));
    }
    await this.ready;
  }

  /** Moves the user's rows from D1 now, if they were not moved (the cron's sweep). */
  async move(userId: string): Promise<MoveOutcome> {
    if (this.userId !== null && this.userId !== userId) throw new Error(`UserLedger of ${this.userId} was asked for ${userId}`);
    this.userId = userId;
    this.retention.userId = userId;
    this.meta.set("user_id", userId);
    let outcome: MoveOutcome | undefined;
    this.ready = this.ctx.blockConcurrencyWhile(async () => void (outcome = await moveFromD1(this.env.DB, this.sql, this.ctx.storage, this.meta, userId)));
    this.ready.catch(() => (this.ready = null));
    await this.ready;
    return outcome as MoveOutcome;
  }

  /** Runs statements as one transaction: all of them, or none when one fails (its error is thrown). */
  async query(userId: string, statements: LedgerQuery[]): Promise<LedgerAnswer[]> {
    await this.open(userId);
    let wrote = false;
    const answers = this.ctx.storage.transactionSync(() =>
      statements.map((statement) => {
        const cursor = this.sql.exec(statement.sql, ...statement.params);
        const rows = statement.raw ? [...cursor.raw()] : cursor.toArray();
        const changes = cursor.rowsWritten > 0 ? this.sql.exec<{ n: number }>(`SELECT changes() AS n`).one().n : 0;
        if (cursor.rowsWritten > 0) wrote = true;
        return { rows, changes };
      }),
    );
    if (wrote) await this.armRetention();
    return answers;
  }

  /** Sets the alarm for the next record due to be forgotten, unless it rings sooner already. */
  private async armRetention() {
    const due = this.retention.nextDue();
    if (due === null) return;
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm();
    if (this.alarmAt !== null && this.alarmAt <= due) return;
    await this.ctx.storage.setAlarm(due);
    this.alarmAt = due;
  }

  async alarm() {
    this.alarmAt = null;
    const userId = this.meta.get("user_id");
    if (userId === null) return;
    await this.open(userId);
    await this.retention.run(Date.now());
    await this.armRetention();
  }

  /** Deletes everything the object holds (the account is being deleted). */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // Nothing is answered by this instance any more; a new one (should anything wake it) starts empty.
    this.ready = Promise.reject(new Error("This account was deleted"));
    this.ready.catch(() => undefined);
  }
}
