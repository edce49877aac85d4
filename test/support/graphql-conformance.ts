import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  type SelectionSetNode,
  typeFromAST,
  validate,
} from "graphql";

/**
 * Conformance of GraphQL exchanges with a published schema (docs/decisions/098-shopify-graphql-conformance.md).
 *
 * - requestProblems: the document parses and passes graphql-js's `validate` (every rule of the GraphQL
 *   specification: fields, arguments and their types, fragments on possible types, variables defined and
 *   used, ...); its variables coerce to the declared types (`getVariableValues`: required, enums, input
 *   objects closed, built-in scalars), and each custom scalar value has the form the schema describes (SCALARS).
 * - answerProblems: an answer's `data` is what executing that document can give, walked against the
 *   selection set with the schema's types: every selected field is there under its response name and no
 *   other, null only where the type is nullable, lists are lists, enums are values of the enum, scalars of
 *   their kind (SCALARS), `__typename` the object's type; an abstract type's value must fit one of its
 *   possible types. `errors` entries have the specification's shape (message, locations, path, extensions).
 */

export type ScalarRule = (value: unknown) => boolean;

const isString = (value: unknown): value is string => typeof value === "string";
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const absoluteUrl = (value: unknown) => {
  if (!isString(value)) return false;
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * How each scalar is written, per the published schema's own descriptions: Decimal and Money are strings
 * ("serialized as a string", "Example values: "29.99""), DateTime an ISO 8601 string, URL an RFC 3986 URI.
 * A scalar without a rule is a problem, so a new field of a new scalar type needs one.
 */
export const SCALARS: Record<string, ScalarRule> = {
  ID: isString,
  String: isString,
  Boolean: (value) => typeof value === "boolean",
  Int: (value) => Number.isInteger(value) && Math.abs(value as number) <= 2 ** 31 - 1,
  Float: (value) => typeof value === "number" && Number.isFinite(value),
  DateTime: (value) => isString(value) && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
  Decimal: (value) => isString(value) && DECIMAL.test(value),
  Money: (value) => isString(value) && DECIMAL.test(value),
  HTML: isString,
  URL: absoluteUrl,
  // The Partner API's URL scalar; a shop's myshopifyDomain is one, written without a scheme ("example.myshopify.com").
  Url: isString,
};

function scalarProblem(name: string, value: unknown, at: string): string | null {
  const rule = SCALARS[name];
  if (!rule) return `${at}: no rule for the scalar ${name}`;
  return rule(value) ? null : `${at}: ${JSON.stringify(value)} is not a ${name}`;
}

/** Custom scalar values inside coerced variable values. */
function inputScalarProblems(type: GraphQLInputType, value: unknown, at: string, problems: string[]) {
  if (value === null || value === undefined) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = Array.isArray(value) ? value : [value];
    for (const [i, item] of items.entries()) inputScalarProblems(nullable.ofType, item, `${at}[${i}]`, problems);
  } else if (isInputObjectType(nullable)) {
    for (const [name, field] of Object.entries(nullable.getFields()))
      inputScalarProblems(field.type, (value as Record<string, unknown>)[name], `${at}.${name}`, problems);
  } else if (isScalarType(nullable)) {
    const problem = scalarProblem(nullable.name, value, at);
    if (problem) problems.push(problem);
  }
}

/** What does not conform in a request body `{query, variables}`. */
export function requestProblems(schema: GraphQLSchema, body: { query?: unknown; variables?: unknown; operationName?: unknown }): string[] {
  if (typeof body.query !== "string") return ["the body has no query"];
  let document: ReturnType<typeof parse>;
  try {
    document = parse(body.query);
  } catch (error) {
    return [`the query does not parse: ${(error as Error).message}`];
  }
  const invalid = validate(schema, document);
  if (invalid.length) return invalid.map((error) => `invalid document: ${error.message}`);
  const operation = getOperationAST(document, typeof body.operationName === "string" ? body.operationName : undefined);
  if (!operation) return ["no operation to run"];
  const variables = (body.variables ?? {}) as Record<string, unknown>;
  const definitions = operation.variableDefinitions ?? [];
  const problems: string[] = [];
  for (const name of Object.keys(variables))
    if (!definitions.some((definition) => definition.variable.name.value === name)) problems.push(`variable $${name} is not declared by the operation`);
  const coerced = getVariableValues(schema, definitions, variables);
  if (coerced.errors) return [...problems, ...coerced.errors.map((error) => `variables: ${error.message}`)];
  for (const definition of definitions) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType;
    inputScalarProblems(type, variables[definition.variable.name.value], `$${definition.variable.name.value}`, problems);
  }
  return problems;
}

type Fragments = Record<string, FragmentDefinitionNode>;

/** Whether a fragment with this type condition applies to an object of `runtime`. */
function applies(schema: GraphQLSchema, condition: string | undefined, runtime: GraphQLObjectType): boolean {
  if (!condition || condition === runtime.name) return true;
  const type = schema.getType(condition);
  return Boolean(type && isAbstractType(type) && schema.isSubType(type, runtime));
}

/** The specification's CollectFields: response name -> field nodes, for an object of `runtime`. */
function collectFields(
  schema: GraphQLSchema,
  runtime: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fragments: Fragments,
  into = new Map<string, FieldNode[]>(),
  problems: string[] = [],
) {
  for (const selection of selectionSet.selections) {
    if (selection.directives?.length) problems.push(`directives (@${selection.directives[0]!.name.value}) are not handled by this check`);
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      into.set(key, [...(into.get(key) ?? []), selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(schema, selection.typeCondition?.name.value, runtime)) collectFields(schema, runtime, selection.selectionSet, fragments, into, problems);
    } else {
      const fragment = fragments[selection.name.value]!;
      if (applies(schema, fragment.typeCondition.name.value, runtime)) collectFields(schema, runtime, fragment.selectionSet, fragments, into, problems);
    }
  }
  return into;
}

const mergedSelections = (nodes: FieldNode[]): SelectionSetNode => ({
  kind: Kind.SELECTION_SET,
  selections: nodes.flatMap((node) => node.selectionSet?.selections ?? []),
});

function objectProblems(
  schema: GraphQLSchema,
  runtime: GraphQLObjectType,
  value: Record<string, unknown>,
  selectionSet: SelectionSetNode,
  fragments: Fragments,
  at: string,
): string[] {
  const problems: string[] = [];
  const fields = collectFields(schema, runtime, selectionSet, fragments, new Map(), problems);
  for (const key of Object.keys(value)) if (!fields.has(key)) problems.push(`${at}.${key}: not selected by the document`);
  for (const [key, nodes] of fields) {
    const path = `${at}.${key}`;
    if (!(key in value)) {
      problems.push(`${path}: selected but missing`);
      continue;
    }
    const name = nodes[0]!.name.value;
    if (name === "__typename") {
      if (value[key] !== runtime.name) problems.push(`${path}: ${JSON.stringify(value[key])} is not ${runtime.name}`);
      continue;
    }
    const field = runtime.getFields()[name];
    if (!field) {
      problems.push(`${path}: ${runtime.name} has no field ${name}`);
      continue;
    }
    problems.push(...valueProblems(schema, field.type, value[key], mergedSelections(nodes), fragments, path));
  }
  return problems;
}

function valueProblems(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  value: unknown,
  selectionSet: SelectionSetNode,
  fragments: Fragments,
  at: string,
): string[] {
  if (value === null || value === undefined) return isNonNullType(type) ? [`${at}: null for the non-null ${String(type)}`] : [];
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return [`${at}: not a list (${String(type)})`];
    return value.flatMap((item, i) => valueProblems(schema, nullable.ofType, item, selectionSet, fragments, `${at}[${i}]`));
  }
  if (isScalarType(nullable)) {
    const problem = scalarProblem(nullable.name, value, at);
    return problem ? [problem] : [];
  }
  if (isEnumType(nullable))
    return typeof value === "string" && nullable.getValue(value) ? [] : [`${at}: ${JSON.stringify(value)} is not a value of ${nullable.name}`];
  if (typeof value !== "object" || Array.isArray(value)) return [`${at}: not an object (${String(type)})`];
  const composite = nullable as GraphQLCompositeType;
  if (isObjectType(composite)) return objectProblems(schema, composite, value as Record<string, unknown>, selectionSet, fragments, at);
  // An abstract type: the value must be what one of its possible types gives for this selection.
  const candidates = schema.getPossibleTypes(composite);
  const tries = candidates.map((candidate) => objectProblems(schema, candidate, value as Record<string, unknown>, selectionSet, fragments, at));
  if (tries.some((problems) => problems.length === 0)) return [];
  const closest = tries.reduce(
    (best, problems) => (problems.length < best.length ? problems : best),
    tries[0] ?? [`${at}: ${composite.name} has no possible types`],
  );
  return [`${at}: fits none of ${composite.name}'s ${candidates.length} possible types; the closest:`, ...closest];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The specification's error entries (GraphQL, October 2021, 7.1.2). */
export function errorEntryProblems(errors: unknown, at = "errors"): string[] {
  if (!Array.isArray(errors) || errors.length === 0) return [`${at}: not a non-empty list`];
  return errors.flatMap((error, i) => {
    const path = `${at}[${i}]`;
    if (!isPlainObject(error)) return [`${path}: not an object`];
    const problems: string[] = [];
    if (typeof error.message !== "string" || !error.message) problems.push(`${path}.message: not a non-empty string`);
    for (const key of Object.keys(error))
      if (!["message", "locations", "path", "extensions"].includes(key)) problems.push(`${path}.${key}: not an error entry key`);
    if (
      error.locations !== undefined &&
      !(
        Array.isArray(error.locations) &&
        error.locations.every((place) => isPlainObject(place) && Number.isInteger(place.line) && Number.isInteger(place.column))
      )
    )
      problems.push(`${path}.locations: not a list of {line, column}`);
    if (error.path !== undefined && !(Array.isArray(error.path) && error.path.every((step) => typeof step === "string" || Number.isInteger(step))))
      problems.push(`${path}.path: not a list of names and indexes`);
    if (error.extensions !== undefined && !isPlainObject(error.extensions)) problems.push(`${path}.extensions: not an object`);
    return problems;
  });
}

/** What does not conform in an answer `{data?, errors?, extensions?}` to the document `query` with `variables`. */
export function answerProblems(schema: GraphQLSchema, query: string, body: unknown): string[] {
  if (!isPlainObject(body)) return ["the answer is not a JSON object"];
  const problems: string[] = [];
  for (const key of Object.keys(body)) if (!["data", "errors", "extensions"].includes(key)) problems.push(`${key}: not a key of a GraphQL answer`);
  if (!("data" in body) && !("errors" in body)) problems.push("neither data nor errors");
  if ("errors" in body) problems.push(...errorEntryProblems(body.errors));
  if (body.extensions !== undefined && !isPlainObject(body.extensions)) problems.push("extensions: not an object");
  if (body.data === null || body.data === undefined) {
    if (!("errors" in body)) problems.push("data is null without errors");
    return problems;
  }
  const document = parse(query);
  const operation = getOperationAST(document);
  if (!operation) return [...problems, "the document has no single operation"];
  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  const fragments: Fragments = Object.fromEntries(
    document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]),
  );
  if (!isPlainObject(body.data)) return [...problems, "data: not an object"];
  problems.push(...objectProblems(schema, root!, body.data, operation.selectionSet, fragments, "data"));
  return problems;
}
