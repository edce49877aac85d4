import { readFileSync } from "node:fs";
import {
  buildSchema,
  type DocumentNode,
  execute,
  type FieldNode,
  type GraphQLError,
  type GraphQLSchema,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";

/**
 * The Shopify stand-in's GraphQL, as a GraphQL server does it (docs/decisions/098-shopify-graphql-conformance.md):
 * each document is parsed, validated against the schema the stand-in answers (a cut of Shopify's published
 * schema, contracts/specs/shopify-admin-2025-01.stand-in.graphql and shopify-partner-2026-07.stand-in.graphql,
 * made by scripts/shopify-schema-extract.ts),
 * its variables coerced to their declared types, and its answer executed from the stand-in's whole objects:
 * only the fields the document selects come back, under their aliases, with inline fragments applied by
 * `__typename`, and a value that does not fit the schema (a null for a non-null field, an enum value the
 * schema lacks) is an error instead of an answer. A field outside the cut is refused as unknown.
 */

const load = (name: string) => buildSchema(readFileSync(new URL(`../../../contracts/specs/${name}`, import.meta.url), "utf8"));

// Built when the sandbox starts, not on the first request: under a busy machine the first document's schema build
// and graphql-js's first validation took longer than the 1.5 s the workers tests give a Shopify call (the
// cross-user campaign's store connection timed out once in a full run).
const adminSchema = load("shopify-admin-2025-01.stand-in.graphql");
const partnerSchema = load("shopify-partner-2026-07.stand-in.graphql");
export const admin = () => adminSchema;
export const partner = () => partnerSchema;

/** An error as Shopify's GraphQL answers it: message, and where in the document when known. */
export interface GraphqlErrorBody {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

const errorBody = (error: GraphQLError, code?: string): GraphqlErrorBody => ({
  message: error.message,
  ...(error.locations?.length ? { locations: error.locations.map(({ line, column }) => ({ line, column })) } : {}),
  ...(error.path ? { path: [...error.path] } : {}),
  ...(code ? { extensions: { code } } : {}),
});

/** A document ready to answer: its operation, coerced variables, and each root field with its coerced arguments. */
export interface Prepared {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The variables as sent (execution coerces them again). */
  variables: Record<string, unknown>;
  /** By response name: the root field's name and arguments (literals and variables alike). */
  roots: { name: string; args: Record<string, unknown> }[];
}

/** Parses, validates and coerces; `{errors}` when the document or its variables are refused. */
export function prepare(
  schema: GraphQLSchema,
  query: string,
  variables: Record<string, unknown>,
  operationName?: string | null,
): { prepared: Prepared } | { errors: GraphqlErrorBody[] } {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    return { errors: [errorBody(error as GraphQLError, "PARSE_ERROR")] };
  }
  const invalid = validate(schema, document);
  if (invalid.length) return { errors: invalid.map((error) => errorBody(error)) };
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return { errors: [{ message: operationName ? `No operation named "${operationName}"` : "An operation name is required" }] };
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return { errors: coerced.errors.map((error) => errorBody(error)) };
  const rootType = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!rootType) return { errors: [{ message: `Schema is not configured for ${operation.operation}s` }] };
  const roots = operation.selectionSet.selections
    .filter((selection): selection is FieldNode => selection.kind === Kind.FIELD && selection.name.value !== "__typename")
    .map((field) => ({ name: field.name.value, args: getArgumentValues(rootType.getFields()[field.name.value]!, field, coerced.coerced) }));
  return { prepared: { schema, document, operation, variables, roots } };
}

/**
 * The answer to a prepared document from `root`, the stand-in's whole objects by root field name. A field
 * whose value is a function is called with the field's arguments (an image's `url(transform:)`).
 */
export function answer(prepared: Prepared, root: Record<string, unknown>): { data: Record<string, unknown> | null; errors?: GraphqlErrorBody[] } {
  const result = execute({
    schema: prepared.schema,
    document: prepared.document,
    operationName: prepared.operation.name?.value,
    rootValue: root,
    variableValues: prepared.variables,
  });
  if ("then" in result) throw new Error("the stand-in's resolvers are synchronous");
  const data = (result.data as Record<string, unknown> | null | undefined) ?? null;
  return result.errors?.length ? { data, errors: result.errors.map((error) => errorBody(error)) } : { data };
}

// The first validation warms graphql-js up as well, for the same reason.
prepare(adminSchema, "query Warm { shop { name } }", {});
