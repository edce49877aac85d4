/**
 * The Shopify stand-in's GraphQL schemas, cut from the schemas Shopify publishes
 * (contracts/specs/shopify-*.introspection.json.gz, see contracts/specs/shopify-dev-mcp.LICENSE):
 * only the types and fields the stand-in answers, each exactly as published (type, nullability, arguments
 * with their types and defaults, deprecations); the input objects, enums and scalars those fields and
 * arguments use are kept whole; an object keeps an interface only when it keeps all of that interface's
 * kept fields; a union keeps its kept members. Descriptions are left out.
 *
 *   node scripts/shopify-schema-extract.ts   # Node 22 (node_modules/.bin/node); rewrites contracts/specs/shopify-*.stand-in.graphql
 *
 * test/unit/shops/shopify-conformance.test.ts checks that the committed files are what this makes.
 * Decision: docs/decisions/098-shopify-graphql-conformance.md.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import {
  astFromValue,
  buildClientSchema,
  buildSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  print,
} from "graphql";

/** Per type the stand-in answers: the fields it fills. Unions, enums, input objects and scalars are kept whole. */
export type KeptFields = Record<string, readonly string[]>;

export const ADMIN_KEPT: KeptFields = {
  QueryRoot: ["currentAppInstallation", "node", "products", "productsCount", "shop"],
  Mutation: ["appSubscriptionCancel", "appSubscriptionCreate"],
  Node: ["id"],
  UserError: ["field", "message"],
  AppSubscriptionCreatePayload: ["appSubscription", "confirmationUrl", "userErrors"],
  AppSubscriptionCancelPayload: ["appSubscription", "userErrors"],
  AppInstallation: ["activeSubscriptions"],
  AppSubscription: ["createdAt", "currentPeriodEnd", "id", "lineItems", "name", "returnUrl", "status", "test", "trialDays"],
  AppSubscriptionLineItem: ["id", "plan"],
  AppPlanV2: ["pricingDetails"],
  AppRecurringPricing: ["interval", "price"],
  AppUsagePricing: ["balanceUsed", "cappedAmount", "interval", "terms"],
  MoneyV2: ["amount", "currencyCode"],
  ProductConnection: ["edges", "nodes", "pageInfo"],
  ProductEdge: ["cursor", "node"],
  PageInfo: ["endCursor", "hasNextPage", "hasPreviousPage", "startCursor"],
  Product: [
    "createdAt",
    "description",
    "descriptionHtml",
    "handle",
    "id",
    "media",
    "onlineStoreUrl",
    "priceRangeV2",
    "productType",
    "status",
    "tags",
    "title",
    "totalInventory",
    "vendor",
  ],
  ProductPriceRangeV2: ["maxVariantPrice", "minVariantPrice"],
  MediaConnection: ["nodes"],
  Media: ["alt", "id", "mediaContentType"],
  MediaImage: ["alt", "id", "image", "mediaContentType"],
  Image: ["altText", "height", "url", "width"],
  Count: ["count", "precision"],
  Shop: ["currencyCode", "email", "id", "myshopifyDomain", "name", "primaryDomain"],
  Domain: ["host", "url"],
};

export const PARTNER_KEPT: KeptFields = {
  QueryRoot: ["transactions"],
  TransactionConnection: ["edges", "pageInfo"],
  TransactionEdge: ["cursor", "node"],
  PageInfo: ["hasNextPage", "hasPreviousPage"],
  Transaction: ["createdAt", "id"],
  AppSaleAdjustment: ["app", "chargeId", "createdAt", "grossAmount", "id", "netAmount", "shop", "shopifyFee"],
  AppSubscriptionSale: ["app", "billingInterval", "chargeId", "createdAt", "grossAmount", "id", "netAmount", "shop", "shopifyFee"],
  Money: ["amount", "currencyCode"],
  Shop: ["id", "myshopifyDomain", "name"],
  App: ["id", "name"],
};

const specs = (name: string) => fileURLToPath(new URL(`../contracts/specs/${name}`, import.meta.url));
export const ADMIN_INTROSPECTION = specs("shopify-admin-2025-01.introspection.json.gz");
export const PARTNER_INTROSPECTION = specs("shopify-partner-2026-07.introspection.json.gz");
export const ADMIN_EXTRACT = specs("shopify-admin-2025-01.stand-in.graphql");
export const PARTNER_EXTRACT = specs("shopify-partner-2026-07.stand-in.graphql");

/** A published schema, from its gzipped introspection result. */
export function loadPublishedSchema(path: string): GraphQLSchema {
  const json = JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as { data: Parameters<typeof buildClientSchema>[0] };
  return buildClientSchema(json.data);
}

const deprecation = (reason: string | null | undefined) => (reason ? ` @deprecated(reason: ${JSON.stringify(reason)})` : "");

function defaultOf(item: GraphQLArgument | GraphQLInputField): string {
  if (item.defaultValue === undefined) return "";
  const ast = astFromValue(item.defaultValue, item.type);
  return ast ? ` = ${print(ast)}` : "";
}

const argumentList = (args: readonly GraphQLArgument[]) =>
  args.length ? `(${args.map((arg) => `${arg.name}: ${String(arg.type)}${defaultOf(arg)}${deprecation(arg.deprecationReason)}`).join(", ")})` : "";

/** The SDL of `kept` cut from `schema`; throws when a kept field's type is an object, interface or union that is not kept. */
export function extractSdl(schema: GraphQLSchema, kept: KeptFields): string {
  const whole = new Map<string, GraphQLNamedType>();
  const missing: string[] = [];
  const keepInput = (type: GraphQLInputType) => {
    const named = getNamedType(type);
    if (whole.has(named.name) || isSpecifiedScalarType(named)) return;
    whole.set(named.name, named);
    if (isInputObjectType(named)) for (const field of Object.values(named.getFields())) keepInput(field.type);
  };
  const fieldsOf = (name: string): GraphQLField<unknown, unknown>[] => {
    const type = schema.getType(name);
    if (!isObjectType(type) && !isInterfaceType(type)) throw new Error(`${name} is not an object or interface type of the published schema`);
    const all = type.getFields();
    return kept[name]!.map((fieldName) => {
      const field = all[fieldName];
      if (!field) throw new Error(`${name}.${fieldName} is not in the published schema`);
      return field;
    });
  };
  for (const name of Object.keys(kept)) {
    for (const field of fieldsOf(name)) {
      for (const arg of field.args) keepInput(arg.type);
      const named = getNamedType(field.type);
      if (isScalarType(named) || isEnumType(named)) keepInput(named);
      else if (isUnionType(named)) {
        whole.set(named.name, named);
        if (!named.getTypes().some((member) => member.name in kept)) missing.push(`${name}.${field.name}: no member of ${named.name} is kept`);
      } else if (!(named.name in kept)) missing.push(`${name}.${field.name}: ${named.name} is not kept`);
    }
  }
  if (missing.length) throw new Error(`The extract is not closed:\n${missing.join("\n")}`);

  const keptFieldSet = (name: string) => new Set(kept[name] ?? []);
  const interfacesOf = (type: { name: string; getInterfaces(): readonly { name: string }[] }) =>
    type
      .getInterfaces()
      .filter((candidate) => candidate.name in kept && [...keptFieldSet(candidate.name)].every((field) => keptFieldSet(type.name).has(field)))
      .map((candidate) => candidate.name);
  const blocks: string[] = [];
  const query = schema.getQueryType()!.name;
  const mutation = schema.getMutationType()?.name;
  blocks.push(`schema {\n  query: ${query}${mutation && mutation in kept ? `\n  mutation: ${mutation}` : ""}\n}`);
  for (const name of Object.keys(kept).sort()) {
    const type = schema.getType(name)!;
    const fields = fieldsOf(name)
      .map((field) => `  ${field.name}${argumentList(field.args)}: ${String(field.type)}${deprecation(field.deprecationReason)}`)
      .join("\n");
    const interfaces = isObjectType(type) || isInterfaceType(type) ? interfacesOf(type) : [];
    const implementsClause = interfaces.length ? ` implements ${interfaces.join(" & ")}` : "";
    blocks.push(`${isInterfaceType(type) ? "interface" : "type"} ${name}${implementsClause} {\n${fields}\n}`);
  }
  for (const [name, type] of [...whole.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (isScalarType(type)) blocks.push(`scalar ${name}`);
    else if (isEnumType(type))
      blocks.push(
        `enum ${name} {\n${type
          .getValues()
          .map((value) => `  ${value.name}${deprecation(value.deprecationReason)}`)
          .join("\n")}\n}`,
      );
    else if (isInputObjectType(type))
      blocks.push(
        `input ${name} {\n${Object.values(type.getFields())
          .map((field) => `  ${field.name}: ${String(field.type)}${defaultOf(field)}${deprecation(field.deprecationReason)}`)
          .join("\n")}\n}`,
      );
    else if (isUnionType(type))
      blocks.push(
        `union ${name} = ${type
          .getTypes()
          .filter((member) => member.name in kept)
          .map((member) => member.name)
          .join(" | ")}`,
      );
  }
  const sdl = `# Cut from Shopify's published schema by scripts/shopify-schema-extract.ts: do not edit.\n\n${blocks.join("\n\n")}\n`;
  buildSchema(sdl); // throws when the cut is not a valid schema
  return sdl;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  writeFileSync(ADMIN_EXTRACT, extractSdl(loadPublishedSchema(ADMIN_INTROSPECTION), ADMIN_KEPT));
  writeFileSync(PARTNER_EXTRACT, extractSdl(loadPublishedSchema(PARTNER_INTROSPECTION), PARTNER_KEPT));
  console.log(`wrote ${ADMIN_EXTRACT} and ${PARTNER_EXTRACT}`);
}
