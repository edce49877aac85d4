import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Json } from "../../support/openapi-conformance.ts";

/**
 * WooCommerce publishes no OpenAPI description of its REST API v3: its documentation is the Slate markdown of
 * github.com/woocommerce/woocommerce-rest-api-docs, with a property table per resource and a parameter table per
 * call. This script derives, from the pages kept in contracts/specs/woocommerce-rest-api-docs/, a small OpenAPI 3.0
 * description of the calls our client (workers/integrations/woocommerce.ts) makes: the products list, one setting
 * option, and the app authorisation endpoint, with the resources they answer and the error answer.
 *
 * What comes from the documentation, read by machine: every property and its type (the property tables, with the
 * sub-tables their "See [...]" links name), enums (a description's "Options: `a`, `b` and `c`"), nullable fields
 * (those the page's own JSON example of the resource shows as null), query parameters and their types and options
 * (the "Available parameters" table of "List all products", the "URL parameters" table of the authorisation
 * endpoint, those marked mandatory required), `_links` (every JSON example carries it), the error answer
 * {code, message, data: {status}} (Introduction, Errors), X-WP-Total and X-WP-TotalPages (Introduction,
 * Pagination), HTTP Basic or consumer_key/consumer_secret query parameters (Authentication over HTTPS), and the
 * JSON posted with the keys (Authentication, its example).
 *
 * What is stated here, each where it is used, because the pages leave it out: the bounds WordPress sets on every
 * collection's page and per_page (WP_REST_Controller::get_collection_params: page >= 1, 1 <= per_page <= 100); the
 * params and details WordPress adds to a rest_invalid_param error (WP_REST_Request::has_valid_params); the date
 * format (WordPress answers local times without a zone: 2017-03-23T17:03:12); and which fields are required: those
 * our client reads, which WooCommerce always answers in the view context. Every object is closed by the checker.
 *
 * Run: npx tsx test/unit/shops/woocommerce-docs-to-openapi.ts (writes contracts/specs/woocommerce-rest-v3.openapi.json);
 * test/unit/shops/woocommerce-conformance.test.ts checks that the file is this script's output.
 */

/** Where the pages come from: the repository and commit they were copied at. */
export const DOCS_SOURCE = {
  repository: "https://github.com/woocommerce/woocommerce-rest-api-docs",
  commit: "13d61967911cb312a27be2dc57b12d5949f40016",
  directory: "source/includes/wp-api-v3",
  files: ["_introduction.md", "_authentication.md", "_products.md", "_setting-options.md"],
} as const;

export type DocPages = Record<(typeof DOCS_SOURCE.files)[number], string>;

const DOCS_DIR = new URL("../../../contracts/specs/woocommerce-rest-api-docs/", import.meta.url);
export const DESCRIPTION_FILE = new URL("../../../contracts/specs/woocommerce-rest-v3.openapi.json", import.meta.url);

export function readDocPages(): DocPages {
  return Object.fromEntries(DOCS_SOURCE.files.map((file) => [file, readFileSync(new URL(file, DOCS_DIR), "utf8")])) as DocPages;
}

// ---- reading the markdown ---------------------------------------------------------------------

interface Row {
  name: string;
  type: string;
  description: string;
}

interface Section {
  level: number;
  title: string;
  anchor: string;
  /** The section's own lines, up to the next heading of any level. */
  lines: string[];
}

/** Slate's (redcarpet's) heading anchor: "Product - Images properties" is #product-images-properties. */
const anchorOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function sections(markdown: string): Section[] {
  const found: Section[] = [];
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = inCode ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) found.push({ level: heading[1].length, title: heading[2], anchor: anchorOf(heading[2]), lines: [] });
    else found.at(-1)?.lines.push(line);
  }
  return found;
}

function section(all: Section[], title: string): Section {
  const found = all.find((candidate) => candidate.title === title);
  if (!found) throw new Error(`The documentation has no section "${title}"`);
  return found;
}

/** The section's lines and those of the sections under it (the sub-headings of a "##" call). */
function withSubsections(all: Section[], title: string): string[] {
  const start = all.indexOf(section(all, title));
  const lines = [...all[start].lines];
  for (const next of all.slice(start + 1)) {
    if (next.level <= all[start].level) break;
    lines.push(`${"#".repeat(next.level)} ${next.title}`, ...next.lines);
  }
  return lines;
}

/** The rows of the first table in these lines: `| \`name\` | type | description |`. */
function tableRows(lines: string[]): Row[] {
  const rows: Row[] = [];
  for (const line of lines) {
    const cells = /^\|(.*)\|\s*$/
      .exec(line.trim())?.[1]
      .split("|")
      .map((cell) => cell.trim());
    if (!cells) {
      if (rows.length > 0) break;
      continue;
    }
    const name = /^`([^`]+)`$/.exec(cells[0])?.[1];
    if (name) rows.push({ name, type: cells[1], description: cells.slice(2).join("|") });
  }
  if (rows.length === 0) throw new Error(`No table in: ${lines.slice(0, 3).join(" / ")}`);
  return rows;
}

/** The first JSON example in these lines (a ```json block, or a plain ``` block after `after`), parsed. */
function jsonExample(lines: string[], after?: string): Json {
  const from = after === undefined ? 0 : lines.findIndex((line) => line.includes(after));
  const start = lines.findIndex((line, index) => index >= from && (after === undefined ? line.trim() === "```json" : line.trim().startsWith("```")));
  const end = lines.findIndex((line, index) => index > start && line.trim() === "```");
  if (start < 0 || end < 0) throw new Error("No JSON example");
  return JSON.parse(lines.slice(start + 1, end).join("\n"));
}

/** "Options: `a`, `b` and `c`." (not "Default options:", which are only examples). */
function optionsOf(description: string): string[] | undefined {
  const match = /(?:^|[.>]\s*)Options: ((?:`[^`]+`(?:, | and )?)+)/.exec(description);
  return match ? [...match[1].matchAll(/`([^`]+)`/g)].map((found) => found[1]) : undefined;
}

const linkOf = (description: string) => /See \[[^\]]+\]\(#([a-z0-9-]+)\)/.exec(description)?.[1];
const isMandatory = (description: string) => description.includes('label-info">mandatory</i>');
/** A property table's heading as a component name: "Product - Images properties" is Product_Images. */
const componentName = (title: string) =>
  title
    .replace(/ properties$/, "")
    .split(" - ")
    .map((part) =>
      part
        .split(/\s+/)
        .map((word) => word[0].toUpperCase() + word.slice(1))
        .join(""),
    )
    .join("_");

/** WordPress answers dates in the site's time or GMT, without a zone: 2017-03-23T17:03:12 (stated: see above). */
const WP_DATE = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$" };

function typeSchema(row: Row, linked: (anchor: string) => Json): Json {
  const link = linkOf(row.description);
  const options = optionsOf(row.description);
  switch (row.type) {
    case "integer":
    case "number":
    case "boolean":
      return { type: row.type };
    case "string":
      return options ? { type: "string", enum: options } : { type: "string" };
    case "date-time":
      return { ...WP_DATE };
    case "array":
      return link ? { type: "array", items: linked(link) } : { type: "array" };
    case "object":
      return link ? linked(link) : { type: "object" };
    case "mixed":
      return {};
    default:
      throw new Error(`Unknown type "${row.type}" of ${row.name}`);
  }
}

// ---- the description ----------------------------------------------------------------------------

/**
 * Required: every field the page's JSON example of the resource shows (WooCommerce answers each field of the table
 * in the view context; the examples show them all), and the fields our client reads, which the checks must find
 * even where the example has no element to show them (a product's tags are [] there).
 */
const READ_BY_CLIENT: Record<string, string[]> = {
  Product: ["id", "name", "permalink", "description", "short_description", "price", "regular_price", "categories", "tags", "images"],
  Product_Categories: ["id", "name"],
  Product_Tags: ["id", "name"],
  Product_Images: ["id", "src"],
  SettingOption: ["id", "value"],
};

/** Fields a resource has only for some of its kinds, as its table says: a setting's options are "for inputs such as select". */
const KIND_DEPENDENT: Record<string, string[]> = { SettingOption: ["options", "placeholder"] };

/** `_links` as every JSON example of the pages shows it: relation names, each a list of {href}. */
const LINKS = {
  type: "object",
  additionalProperties: { type: "array", items: { type: "object", required: ["href"], properties: { href: { type: "string" } } } },
};

export function describeWooCommerce(pages: DocPages): Json {
  const products = sections(pages["_products.md"]);
  const settings = sections(pages["_setting-options.md"]);
  const authentication = sections(pages["_authentication.md"]);
  const introduction = sections(pages["_introduction.md"]);
  const schemas: Record<string, Json> = {};

  /** A property table as a component, with its linked sub-tables, nullable where the example shows null. */
  function component(all: Section[], title: string, example: Json): Json {
    const name = componentName(title);
    if (!schemas[name]) {
      schemas[name] = {};
      const properties: Record<string, Json> = {};
      for (const row of tableRows(section(all, title).lines)) {
        const exampleValue = example?.[row.name];
        const nested = Array.isArray(exampleValue) ? exampleValue[0] : exampleValue;
        const linked = (anchor: string) => {
          const target = all.find((candidate) => candidate.anchor === anchor);
          if (!target) throw new Error(`No section #${anchor}`);
          return component(all, target.title, nested && typeof nested === "object" ? nested : undefined);
        };
        const schema = typeSchema(row, linked);
        properties[row.name] = exampleValue === null && Object.keys(schema).length > 0 ? { ...schema, nullable: true } : schema;
      }
      if (example && typeof example === "object" && "_links" in example) properties._links = LINKS;
      const shown = example && typeof example === "object" ? Object.keys(properties).filter((field) => field in example) : [];
      const required = [...new Set([...shown, ...(READ_BY_CLIENT[name] ?? [])])].filter((field) => !KIND_DEPENDENT[name]?.includes(field));
      schemas[name] = { type: "object", ...(required.length > 0 ? { required } : {}), properties };
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  const productExample = jsonExample(withSubsections(products, "Retrieve a product"));
  const product = component(products, "Product properties", productExample);
  const settingExample = jsonExample(withSubsections(settings, "Retrieve a setting option"));
  const setting = component(settings, "Setting option properties", settingExample);

  // The error answer (Introduction, Errors): {code, message, data: {status}}, with what WordPress adds to a
  // rest_invalid_param error (stated: WP_REST_Request::has_valid_params).
  const errorExample = jsonExample(section(introduction, "Errors").lines);
  schemas.Error = {
    type: "object",
    required: Object.keys(errorExample),
    properties: {
      code: { type: "string" },
      message: { type: "string" },
      data: {
        type: "object",
        required: Object.keys(errorExample.data),
        properties: {
          status: { type: "integer" },
          params: { type: "object", additionalProperties: { type: "string" } },
          details: { type: "object" },
        },
      },
    },
  };
  const errorStatuses = tableRows(section(introduction, "Errors").lines.map((line) => line.replace(/`(\d{3}) [^`]+`/, "`$1`"))).map((row) => row.name);
  const errors = Object.fromEntries(
    errorStatuses.map((status) => [
      status,
      { description: "WooCommerce's error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );

  // The JSON posted to callback_url with the keys (Authentication, its example). user_id echoes the user_id
  // parameter, which the URL parameters table types as a string (the example's 123 is a number only there).
  const keysSection = withSubsections(authentication, "Auto generating API keys using our Application Authentication Endpoint");
  const keysExample = jsonExample(keysSection, "Example of JSON posted with the API Keys");
  // The scope parameter lists its levels as "Available: `read`, `write` and `read_write`".
  const urlParameters = tableRows(keysSection.slice(keysSection.findIndex((line) => line.includes("URL parameters")))).map((row) => ({
    ...row,
    description: row.description.replace(/^Level of access\. Available:/, "Options:"),
  }));
  const scopeRow = { ...urlParameters.find((row) => row.name === "scope")!, type: "string" };
  schemas.ApiKeys = {
    type: "object",
    required: Object.keys(keysExample),
    properties: Object.fromEntries(
      Object.entries(keysExample as Record<string, unknown>).map(([name, value]) => {
        const parameter = urlParameters.find((row) => row.name === name);
        if (parameter) return [name, typeSchema(parameter, () => ({}))];
        // key_permissions: the scope granted, one of the scope parameter's levels.
        if (name === "key_permissions") return [name, typeSchema(scopeRow, () => ({}))];
        return [name, { type: Number.isInteger(value) ? "integer" : typeof value }];
      }),
    ),
  };

  // The products list: its parameters table, with WordPress's collection bounds (stated: see above).
  const COLLECTION_BOUNDS: Record<string, Json> = { page: { minimum: 1 }, per_page: { minimum: 1, maximum: 100 } };
  const listParameters = tableRows(
    withSubsections(products, "List all products").slice(
      withSubsections(products, "List all products").findIndex((line) => line.includes("Available parameters")),
    ),
  ).map((row) => {
    const schema = typeSchema(row, () => ({}));
    const items = row.type === "array" ? { items: { type: "integer" } } : {};
    return { name: row.name, in: "query", required: false, schema: { ...schema, ...items, ...(COLLECTION_BOUNDS[row.name] ?? {}) } };
  });
  const countHeader = (description: string) => ({ description, required: true, schema: { type: "integer", minimum: 0 } });

  const authorizeParameters = urlParameters.map((row) => ({
    name: row.name,
    in: "query",
    required: isMandatory(row.description),
    schema: {
      ...typeSchema(row, () => ({})),
      // "callback_url ... should be over HTTPS".
      ...(row.name === "callback_url" && /over \*\*HTTPS\*\*/.test(row.description) ? { pattern: "^https://" } : {}),
    },
  }));

  return {
    openapi: "3.0.3",
    info: {
      title: "WooCommerce REST API v3: the calls this app makes (derived from WooCommerce's documentation)",
      version: "wc/v3",
      description:
        "Generated by test/unit/shops/woocommerce-docs-to-openapi.ts from the pages in contracts/specs/woocommerce-rest-api-docs/ " +
        `(${DOCS_SOURCE.repository}, ${DOCS_SOURCE.directory}, commit ${DOCS_SOURCE.commit}; Apache-2.0). Do not edit: run the script.`,
      "x-source": DOCS_SOURCE,
    },
    servers: [{ url: "https://example.com", description: "Each store is its own server: its WordPress address." }],
    security: [{ basic: [] }, { consumer_key: [], consumer_secret: [] }],
    paths: {
      "/wp-json/wc/v3/products": {
        get: {
          operationId: "listProducts",
          summary: "List all products (_products.md)",
          parameters: listParameters,
          responses: {
            "200": {
              description: "A page of products",
              headers: {
                "X-WP-Total": countHeader("The total number of resources (_introduction.md, Pagination)"),
                "X-WP-TotalPages": countHeader("The total number of pages (_introduction.md, Pagination)"),
                Link: { description: "Pagination links (_introduction.md, Link Header)", required: false, schema: { type: "string" } },
              },
              content: { "application/json": { schema: { type: "array", items: product } } },
            },
            ...errors,
          },
        },
      },
      "/wp-json/wc/v3/settings/{group_id}/{id}": {
        get: {
          operationId: "retrieveSettingOption",
          summary: "Retrieve a setting option (_setting-options.md)",
          parameters: [
            { name: "group_id", in: "path", required: true, schema: { type: "string" } },
            { name: "id", in: "path", required: true, schema: { type: "string" } },
          ],
          responses: { "200": { description: "The setting option", content: { "application/json": { schema: setting } } }, ...errors },
        },
      },
      "/wc-auth/v1/authorize": {
        get: {
          operationId: "authorize",
          summary: "Application Authentication Endpoint (_authentication.md): the shop owner's grant page",
          security: [],
          parameters: authorizeParameters,
          responses: { "200": { description: "The grant page (HTML)" } },
        },
      },
    },
    components: {
      securitySchemes: {
        basic: { type: "http", scheme: "basic", description: "Consumer key as the user name, consumer secret as the password (over HTTPS)" },
        consumer_key: { type: "apiKey", in: "query", name: "consumer_key", description: "For servers that do not pass the Authorization header on" },
        consumer_secret: { type: "apiKey", in: "query", name: "consumer_secret", description: "With consumer_key" },
      },
      schemas,
    },
  };
}

/** The documentation's own JSON example of a product (Retrieve a product). */
export const productExample = (pages: DocPages): Json => jsonExample(withSubsections(sections(pages["_products.md"]), "Retrieve a product"));

/** The description as the committed file holds it. */
export const descriptionText = (pages: DocPages) => `${JSON.stringify(describeWooCommerce(pages), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DESCRIPTION_FILE, descriptionText(readDocPages()));
  console.log(`Wrote ${fileURLToPath(DESCRIPTION_FILE)}`);
}
