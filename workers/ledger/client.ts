import { drizzle } from "drizzle-orm/sqlite-proxy";
import type { LedgerAnswer, LedgerQuery, UserLedger } from "../../durable-objects/user-ledger.ts";
import * as schema from "../db/schema.ts";
import type { Env } from "../env.ts";

/**
 * A user's UserLedger object as the services use it (docs/decisions/084-user-ledger.md): shaped like the D1
 * binding (prepare, bind, first, all, run, raw, batch), so the statements written for D1 run there unchanged, and a
 * drizzle client over the same object for the queries written with drizzle. A batch is one transaction of the
 * object; each call is one round trip to it.
 */
export type LedgerParam = SqlStorageValue | boolean | undefined;

export interface LedgerResult<T> {
  results: T[];
  success: true;
  meta: { changes: number };
}

export class LedgerStatement {
  readonly ledger: Ledger;
  readonly sql: string;
  readonly params: LedgerParam[];

  constructor(ledger: Ledger, sql: string, params: LedgerParam[] = []) {
    this.ledger = ledger;
    this.sql = sql;
    this.params = params;
  }

  bind(...params: LedgerParam[]): LedgerStatement {
    return new LedgerStatement(this.ledger, this.sql, params);
  }

  /** The statement as the object receives it (booleans as 1 and 0, as D1 stores them). */
  query(raw = false): LedgerQuery {
    const params = this.params.map((value) => {
      if (value === undefined) throw new Error(`A ledger statement was given undefined: ${this.sql.slice(0, 80)}`);
      return typeof value === "boolean" ? (value ? 1 : 0) : value;
    });
    return raw ? { sql: this.sql, params, raw } : { sql: this.sql, params };
  }

  async all<T = Record<string, unknown>>(): Promise<LedgerResult<T>> {
    const [answer] = await this.ledger.send([this.query()]);
    return resultOf<T>(answer);
  }

  async run(): Promise<LedgerResult<Record<string, unknown>>> {
    return this.all();
  }

  async first<T = Record<string, unknown>>(): Promise<T | null> {
    const { results } = await this.all<T>();
    return results[0] ?? null;
  }

  async raw<T = unknown[]>(): Promise<T[]> {
    const [answer] = await this.ledger.send([this.query(true)]);
    return answer.rows as T[];
  }
}

function resultOf<T>(answer: LedgerAnswer): LedgerResult<T> {
  return { results: answer.rows as T[], success: true, meta: { changes: answer.changes } };
}

export class Ledger {
  private orm: ReturnType<typeof newOrm> | null = null;
  readonly userId: string;
  private readonly stub: DurableObjectStub<UserLedger>;

  constructor(userId: string, stub: DurableObjectStub<UserLedger>) {
    this.userId = userId;
    this.stub = stub;
  }

  prepare(sql: string): LedgerStatement {
    return new LedgerStatement(this, sql);
  }

  /** Statements run as one transaction of the object, in order (all or none). */
  async batch<T = Record<string, unknown>>(statements: LedgerStatement[]): Promise<LedgerResult<T>[]> {
    if (statements.length === 0) return [];
    const answers = await this.send(statements.map((statement) => statement.query()));
    return answers.map((answer) => resultOf<T>(answer));
  }

  send(queries: LedgerQuery[]): Promise<LedgerAnswer[]> {
    return this.stub.query(this.userId, queries) as Promise<LedgerAnswer[]>;
  }

  /** A drizzle client over the object (the schema's pinHistory, creditLedger and the rest map its tables). */
  get db() {
    return (this.orm ??= newOrm(this));
  }

  /** Moves the user's rows from D1 if they are not moved yet (the sweep; any other call does it first too). */
  move() {
    return this.stub.move(this.userId);
  }

  /** Deletes the object's records (account deletion). */
  destroy() {
    return this.stub.destroy();
  }
}

function newOrm(ledger: Ledger) {
  const answer = (rows: unknown[], method: "run" | "all" | "values" | "get") => ({ rows: method === "get" ? (rows[0] as unknown[]) : rows });
  return drizzle(
    async (sql, params, method) => {
      const [result] = await ledger.send([{ sql, params, raw: true }]);
      return answer(result.rows, method);
    },
    async (queries) => {
      const results = await ledger.send(queries.map(({ sql, params }) => ({ sql, params, raw: true })));
      return results.map((result, i) => answer(result.rows, queries[i].method));
    },
    { schema },
  );
}

/** The ledger of one user. */
export function ledgerOf(env: Pick<Env, "USER_LEDGER">, userId: string): Ledger {
  const stub = env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
  return new Ledger(userId, stub);
}
