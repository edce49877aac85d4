// What a deploy needs, checked before it runs (decision 096): every name the worker code reads from its Env is
// declared (wrangler.toml or a secret of .dev.vars.example), and every declared binding, secret and variable has a
// row in the deploy guide that says how to create or set it. Pure: it takes the files' texts, the caller reads them.
import { parseEnv } from "node:util";
import { parse as parseToml } from "smol-toml";
import ts from "typescript";

export interface SourceText {
  /** Shown in messages, relative to the repository. */
  path: string;
  text: string;
}

export interface DeployConfigInput {
  wranglerToml: string;
  devVarsExample: string;
  /** The deploy guide (markdown) and its path for messages. */
  guide: string;
  guidePath: string;
  /** The worker's source files (TypeScript), as `path` and text. */
  code: SourceText[];
}

/** The guide's three sections: a declared name must have a table row under the one its kind belongs to. */
export type GuideSection = "Bindings" | "Secrets" | "Variables";

export interface Declared {
  name: string;
  /** What it is, in words: "D1 database", "secret", "variable", "queue consumed by the worker". */
  kind: string;
  section: GuideSection;
  /** Words its guide row must contain: the resource to create (a bucket, a queue, a database, a container image). */
  mentions: string[];
  /** False for queues: they are created and consumed but not a name in Env. */
  inEnv: boolean;
}

export interface DeployConfigReport {
  /** Each name the code reads from Env, with where (path:line). */
  used: Map<string, string[]>;
  declared: Declared[];
  /** Declared names in Env that the code does not read: configuration left over, or a form of reading the scan misses. */
  unread: string[];
  /** Empty when the deploy may go ahead. */
  problems: string[];
}

export function checkDeployConfig(input: DeployConfigInput): DeployConfigReport {
  const problems: string[] = [];
  const used = envNamesUsed(input.code);
  const wrangler = declaredInWrangler(input.wranglerToml);
  problems.push(...wrangler.problems);
  const secrets = Object.keys(parseEnv(input.devVarsExample));
  const varNames = new Set(wrangler.declared.filter((item) => item.section === "Variables").map((item) => item.name));

  for (const name of secrets) {
    if (varNames.has(name))
      problems.push(
        `${name} is a secret (.dev.vars.example) and wrangler.toml [vars] sets it too: a value in [vars] is deployed in plain text; remove it from [vars] and set it with \`npx wrangler secret put ${name}\`.`,
      );
  }
  // A name set in both is a secret set by mistake in [vars] too: the guide lists it as a secret.
  const declared: Declared[] = [
    ...wrangler.declared.filter((item) => item.section !== "Variables" || !secrets.includes(item.name)),
    ...secrets.map((name) => ({ name, kind: "secret", section: "Secrets" as const, mentions: [], inEnv: true })),
  ];

  const inEnv = new Set(declared.filter((item) => item.inEnv).map((item) => item.name));
  for (const [name, where] of used) {
    if (!inEnv.has(name))
      problems.push(
        `${name} is read by the worker code (${where.join(", ")}) but wrangler.toml does not declare it and .dev.vars.example does not list it as a secret.`,
      );
  }

  const rows = guideRows(input.guide);
  for (const item of declared) {
    const row = rows.get(item.name);
    if (!row) {
      problems.push(`${item.name} (${item.kind}) has no row in the ${item.section} tables of ${input.guidePath}.`);
      continue;
    }
    if (row.section !== item.section)
      problems.push(`${item.name} (${item.kind}) belongs under ${item.section}, but ${input.guidePath} lists it under ${row.section ?? "no section"}.`);
    if (row.cells.length < 3 || row.cells.slice(1).some((cell) => cell === ""))
      problems.push(`${input.guidePath}'s row for ${item.name} must say what it is and how to create or set it (three filled columns).`);
    for (const word of item.mentions) {
      if (!row.text.includes(word)) problems.push(`${input.guidePath}'s row for ${item.name} does not name ${word}, which the deploy needs.`);
    }
  }
  const declaredNames = new Set(declared.map((item) => item.name));
  for (const [name, row] of rows) {
    if (!declaredNames.has(name) && row.section)
      problems.push(`${input.guidePath} lists ${name} under ${row.section}, but neither wrangler.toml nor .dev.vars.example declares it.`);
  }
  const unread = declared.filter((item) => item.inEnv && !used.has(item.name)).map((item) => item.name);
  return { used, declared, unread, problems };
}

// --- What the code reads --------------------------------------------------------------------------------------------

/** How this project names every binding, secret and variable. */
const BINDING_NAME = /^[A-Z][A-Z0-9_]*$/;
/** The names of the Env type (workers/env.ts and the generated worker-configuration.d.ts). */
const ENV_TYPES = new Set(["Env", "CloudflareBindings", "Cloudflare.Env"]);

/**
 * The names the code reads from the worker's Env, with where. Read by the TypeScript parser, not the checker: the
 * integrations take interfaces of their own (StripeEnv, ScrapeEnv) that `env` is passed to, so following the Env type
 * misses half the names (decision 096); the project's convention names the object `env` wherever it goes. The forms:
 * `env.NAME`, `c.env.NAME`, `this.env.NAME`, `this.#env.NAME`, `context.cloudflare.env.NAME`, `process.env.NAME`
 * (nodejs_compat fills it from the bindings), `env["NAME"]`, `const { NAME } = env`, `{ env: { NAME } }`,
 * `Pick<Env, "A" | "B">` and `Env["NAME"]`. Read off an `env` object, a name counts only in capitals (the bindings'
 * convention: the browser's own `env` is camelCase). Not `import.meta.env` (Vite's, fixed at build time). Comments and
 * strings are not code.
 */
export function envNamesUsed(files: SourceText[]): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false, file.path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const note = (name: string, node: ts.Node) => {
      const where = `${file.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
      const list = used.get(name) ?? [];
      if (!list.includes(where)) list.push(where);
      used.set(name, list);
    };
    // Read off an object named env: only names in the bindings' capitals, since the browser has an env object of its
    // own (the public configuration, camelCase: `env.appVersion`).
    const noteRead = (name: string, node: ts.Node) => {
      if (BINDING_NAME.test(name)) note(name, node);
    };
    const noteBindings = (pattern: ts.ObjectBindingPattern) => {
      for (const element of pattern.elements) {
        if (element.dotDotDotToken) continue;
        const key = element.propertyName ?? element.name;
        if (ts.isIdentifier(key) || ts.isStringLiteral(key)) noteRead(key.text, element);
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) && isEnvObject(node.expression)) noteRead(node.name.text, node.name);
      else if (ts.isElementAccessExpression(node) && isEnvObject(node.expression) && ts.isStringLiteralLike(node.argumentExpression))
        noteRead(node.argumentExpression.text, node.argumentExpression);
      else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && isEnvObject(node.initializer))
        noteBindings(node.name);
      else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.name) && nameOf(node.propertyName ?? null) === "env") noteBindings(node.name);
      else if (ts.isTypeReferenceNode(node) && typeName(node.typeName) === "Pick" && node.typeArguments?.length === 2) {
        const [target, keys] = node.typeArguments;
        if (ts.isTypeReferenceNode(target) && ENV_TYPES.has(typeName(target.typeName))) for (const key of literalKeys(keys)) note(key, keys);
      } else if (ts.isIndexedAccessTypeNode(node) && ts.isTypeReferenceNode(node.objectType) && ENV_TYPES.has(typeName(node.objectType.typeName))) {
        for (const key of literalKeys(node.indexType)) note(key, node.indexType);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return new Map([...used].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * `env`, `….env` (c.env, this.env, context.cloudflare.env, process.env) or `this.#env`, through parentheses, `as`, `!`
 * and `satisfies`.
 */
function isEnvObject(expression: ts.Expression): boolean {
  let inner = expression;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isNonNullExpression(inner) || ts.isSatisfiesExpression(inner))
    inner = inner.expression;
  if (ts.isIdentifier(inner)) return inner.text === "env";
  return ts.isPropertyAccessExpression(inner) && (inner.name.text === "env" || inner.name.text === "#env") && !ts.isMetaProperty(inner.expression);
}

function nameOf(node: ts.PropertyName | null): string | null {
  return node && (ts.isIdentifier(node) || ts.isStringLiteral(node)) ? node.text : null;
}

function typeName(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${typeName(name.left)}.${name.right.text}`;
}

/** `"A"` or `"A" | "B"` in a type. */
function literalKeys(type: ts.TypeNode): string[] {
  if (ts.isUnionTypeNode(type)) return type.types.flatMap(literalKeys);
  if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) return [type.literal.text];
  return [];
}

// --- What wrangler.toml declares ------------------------------------------------------------------------------------

type Table = Record<string, unknown>;

/**
 * The binding kinds of wrangler's configuration and the field that names each in Env. A top-level key not listed
 * here whose table (or array of tables) carries a `binding` is taken as a binding too, so a kind added later is
 * still checked.
 */
const BINDING_KINDS: { path: string[]; field: "binding" | "name"; kind: string; mentions?: (entry: Table) => unknown[] }[] = [
  { path: ["d1_databases"], field: "binding", kind: "D1 database", mentions: (entry) => [entry.database_name] },
  { path: ["r2_buckets"], field: "binding", kind: "R2 bucket", mentions: (entry) => [entry.bucket_name] },
  { path: ["kv_namespaces"], field: "binding", kind: "KV namespace" },
  { path: ["durable_objects", "bindings"], field: "name", kind: "Durable Object", mentions: (entry) => [entry.class_name] },
  { path: ["queues", "producers"], field: "binding", kind: "queue producer", mentions: (entry) => [entry.queue] },
  { path: ["assets"], field: "binding", kind: "static assets" },
  { path: ["send_email"], field: "name", kind: "e-mail sending" },
  { path: ["services"], field: "binding", kind: "service binding" },
  { path: ["workflows"], field: "binding", kind: "Workflow" },
  { path: ["hyperdrive"], field: "binding", kind: "Hyperdrive" },
  { path: ["vectorize"], field: "binding", kind: "Vectorize index" },
  { path: ["analytics_engine_datasets"], field: "binding", kind: "Analytics Engine dataset" },
  { path: ["ai"], field: "binding", kind: "Workers AI" },
  { path: ["unsafe", "bindings"], field: "name", kind: "unsafe binding" },
];

/** Top-level keys whose tables are not bindings: the variables, and the per-environment sections (not checked). */
const NOT_BINDINGS = new Set(["vars", "env"]);

/** Declared in wrangler.toml: [vars], every binding, and the queues the worker consumes or dead-letters into. */
export function declaredInWrangler(text: string): { declared: Declared[]; problems: string[] } {
  let config: Table;
  try {
    config = parseToml(text) as Table;
  } catch (error) {
    return { declared: [], problems: [`wrangler.toml does not parse: ${(error as Error).message}`] };
  }
  const declared: Declared[] = [];
  const problems: string[] = [];
  const add = (item: Omit<Declared, "mentions"> & { mentions?: unknown[] }) => {
    if (declared.some((other) => other.name === item.name && other.section === item.section)) return;
    declared.push({ ...item, mentions: (item.mentions ?? []).filter((word): word is string => typeof word === "string" && word !== "") });
  };

  for (const name of Object.keys(asTable(config.vars) ?? {})) add({ name, kind: "variable", section: "Variables", inEnv: true });

  const known = new Set(BINDING_KINDS.map((kind) => kind.path[0]));
  const kinds = [
    ...BINDING_KINDS,
    ...Object.keys(config)
      .filter((key) => !known.has(key) && !NOT_BINDINGS.has(key))
      .map((key) => ({ path: [key], field: "binding" as const, kind: key, mentions: undefined })),
  ];
  const containers = entries(config.containers);
  for (const { path, field, kind, mentions } of kinds) {
    for (const entry of entries(path.reduce<unknown>((value, key) => asTable(value)?.[key], config))) {
      const name = entry[field];
      if (typeof name !== "string") continue;
      const container = kind === "Durable Object" ? containers.find((each) => each.class_name === entry.class_name) : undefined;
      add({
        name,
        kind: container ? "Durable Object running a container" : kind,
        section: "Bindings",
        inEnv: true,
        mentions: [...(mentions?.(entry) ?? []), ...(container ? [imagePath(container.image)] : [])],
      });
    }
  }
  // A container is reached only through a Durable Object binding of its class.
  const objectClasses = new Set(entries(asTable(config.durable_objects)?.bindings).map((entry) => entry.class_name));
  for (const container of containers) {
    if (!objectClasses.has(container.class_name))
      problems.push(`wrangler.toml's container ${String(container.class_name)} has no Durable Object binding of that class: the worker cannot reach it.`);
  }
  for (const consumer of entries(asTable(config.queues)?.consumers)) {
    if (typeof consumer.queue === "string") add({ name: consumer.queue, kind: "queue consumed by the worker", section: "Bindings", inEnv: false });
    if (typeof consumer.dead_letter_queue === "string")
      add({ name: consumer.dead_letter_queue, kind: `dead-letter queue of ${String(consumer.queue)}`, section: "Bindings", inEnv: false });
  }
  return { declared, problems };
}

function asTable(value: unknown): Table | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Table) : undefined;
}

/** A table or an array of tables, as a list. */
function entries(value: unknown): Table[] {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map(asTable).filter((table): table is Table => table !== undefined);
}

/** `./containers/video/Dockerfile` is named `containers/video/Dockerfile` in the guide. */
function imagePath(image: unknown): unknown {
  return typeof image === "string" ? image.replace(/^\.\//, "") : image;
}

// --- What the guide lists -------------------------------------------------------------------------------------------

interface GuideRow {
  section: GuideSection | null;
  /** The cells, trimmed; the first holds the name as `NAME`. */
  cells: string[];
  text: string;
}

/**
 * The guide's table rows keyed by the name in their first cell (written as code: `NAME`), each with the section
 * (## Bindings, ## Secrets, ## Variables) it stands under. Sub-headings (###) inside a section keep its section.
 */
export function guideRows(markdown: string): Map<string, GuideRow> {
  const rows = new Map<string, GuideRow>();
  let section: GuideSection | null = null;
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      section = (["Bindings", "Secrets", "Variables"] as const).find((name) => name === heading[1]) ?? null;
      continue;
    }
    if (!line.trimStart().startsWith("|")) continue;
    const cells = line
      .trim()
      .replace(/^\||\|$/g, "")
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    const name = /^`([^`]+)`$/.exec(cells[0] ?? "")?.[1];
    // A row under one of the three sections wins over one elsewhere (a table of steps, say).
    if (name && (!rows.has(name) || (section && !rows.get(name)?.section))) rows.set(name, { section, cells, text: line });
  }
  return rows;
}
