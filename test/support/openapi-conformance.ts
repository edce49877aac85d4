import Ajv2019, { type ValidateFunction } from "ajv/dist/2019.js";
import addFormats from "ajv-formats";

// Conformance with a provider's published OpenAPI 3.0 description (Pinterest's, PayPal's, Etsy's, and the
// one derived from WooCommerce's documentation): each request a client sends, and each answer of a stand-in,
// is checked against the operation it belongs to: method and path, declared query parameters, security
// requirements, request content type and body, response status, declared headers, content type and body. Schemas are checked with Ajv (JSON Schema 2019-09) with the OpenAPI 3.0
// keywords translated (nullable, discriminator) and objects closed: a property the description does not
// declare is an error, as is an answer missing a required field. Component schemas used as allOf
// members stay open; the schema that includes them closes the object.

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document and the answers it checks are walked as untyped JSON.
export type Json = any;

export interface Exchange {
  method: string;
  url: URL;
  requestHeaders: Headers;
  requestBody: string | null;
  status?: number;
  responseHeaders?: Headers;
  responseBody?: string;
}

export interface Operation {
  id: string;
  template: string;
  method: string;
  definition: Json;
  pathParams: Record<string, string>;
}

const SCHEMA_KEYWORDS_MAP = new Set(["properties", "patternProperties"]);
const SCHEMA_KEYWORDS_ONE = new Set(["items", "additionalProperties", "not"]);
const SCHEMA_KEYWORDS_LIST = new Set(["oneOf", "anyOf"]);

/**
 * `{allOf: [{$ref}], description?, nullable?}` with nothing else that constrains: a reference that carries a
 * description (Etsy writes every nested resource so). It is the referenced schema itself, closed as it is.
 */
function isReferenceWrapper(node: Json): boolean {
  if (!Array.isArray(node?.allOf) || node.allOf.length !== 1 || typeof node.allOf[0]?.$ref !== "string") return false;
  return Object.keys(node).every((key) => ["allOf", "description", "nullable", "example"].includes(key) || key.startsWith("x-"));
}

/** Component schemas used as allOf members elsewhere stay open: the schema that includes them closes the object. */
function allOfTargets(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node))
    node.forEach((item) => {
      allOfTargets(item, found);
    });
  else if (node && typeof node === "object") {
    if (Array.isArray(node.allOf) && !isReferenceWrapper(node)) {
      for (const member of node.allOf) if (typeof member?.$ref === "string") found.add(member.$ref.split("/").pop());
    }
    Object.values(node).forEach((value) => {
      allOfTargets(value, found);
    });
  }
  return found;
}

/**
 * An OpenAPI 3.0 schema as JSON Schema 2019-09, closed unless it is an allOf member. `deepOpen`: nothing
 * inside it is closed either (a component that only refines another, as PayPal's per-operation error
 * components list the `issue` values of details items that the base error component declares in full).
 */
function toJsonSchema(node: Json, closed: boolean, specId: string, deepOpen = false): Json {
  if (!node || typeof node !== "object" || Array.isArray(node)) return node;
  if (isReferenceWrapper(node)) {
    const reference = { $ref: String(node.allOf[0].$ref).replace(/^#/, `${specId}#`) };
    return node.nullable === true ? { anyOf: [{ type: "null" }, reference] } : reference;
  }
  if (deepOpen) closed = false;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Record<string, Json>)) {
    if (key === "$ref") out.$ref = String(value).replace(/^#/, `${specId}#`);
    else if (SCHEMA_KEYWORDS_MAP.has(key))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema, true, specId, deepOpen)]));
    else if (SCHEMA_KEYWORDS_ONE.has(key)) out[key] = typeof value === "object" ? toJsonSchema(value, true, specId, deepOpen) : value;
    else if (key === "oneOf" && (value as Json[]).every((schema) => Array.isArray(schema?.enum)))
      // multi_pins/analytics lists its standard and its video metric types as two overlapping enums (IMPRESSION is
      // in both): the description means "one of these values", which is anyOf in JSON Schema.
      out.anyOf = (value as Json[]).map((schema) => toJsonSchema(schema, true, specId, deepOpen));
    else if (SCHEMA_KEYWORDS_LIST.has(key)) out[key] = (value as Json[]).map((schema) => toJsonSchema(schema, true, specId, deepOpen));
    else if (key === "allOf") out.allOf = (value as Json[]).map((schema) => toJsonSchema(schema, false, specId, deepOpen));
    else if (key === "nullable" || key === "discriminator" || key === "example" || key.startsWith("x-")) continue;
    else out[key] = value;
  }
  // OpenAPI 3.0 boolean exclusive bounds.
  if (out.exclusiveMinimum === true) [out.exclusiveMinimum, out.minimum] = [out.minimum, undefined];
  if (out.exclusiveMaximum === true) [out.exclusiveMaximum, out.maximum] = [out.maximum, undefined];
  if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  // discriminator: the value of propertyName selects the mapped schema, which must then hold too.
  const mapping = node.discriminator?.mapping as Record<string, string> | undefined;
  if (mapping) {
    const property = node.discriminator.propertyName as string;
    out.allOf = [
      ...(out.allOf ?? []),
      ...Object.entries(mapping).map(([value, ref]) => ({
        if: { properties: { [property]: { const: value } }, required: [property] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, in a schema object that is never awaited.
        then: { $ref: ref.replace(/^#/, `${specId}#`) },
      })),
    ];
  }
  if (closed && out.properties && out.additionalProperties === undefined) out.unevaluatedProperties = false;
  return node.nullable === true ? { anyOf: [{ type: "null" }, out] } : out;
}

/**
 * A checker for one OpenAPI description; `specId` names it inside Ajv. `unicodeRegExp: false` compiles the
 * description's patterns without the u flag (PayPal's use escapes that only non-Unicode regular expressions allow).
 * `allOfComponentsOpenThroughout`: a component used as an allOf member is open inside too, not only at its top
 * (PayPal's error answers are allOf [error_422, subscriptions.create-422], the second listing the issues of
 * details items that error_422 declares, and closes, in full); the other member still closes what it declares.
 */
export function createOpenApiChecker(
  spec: Json,
  specId: string,
  options: { unicodeRegExp?: boolean; allOfComponentsOpenThroughout?: boolean; arrayQueryCommaSeparated?: boolean } = {},
) {
  const openTargets = allOfTargets(spec);
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false, logger: false, unicodeRegExp: options.unicodeRegExp ?? true });
  addFormats(ajv);
  ajv.addSchema({
    $id: specId,
    components: {
      schemas: Object.fromEntries(
        Object.entries(spec.components.schemas as Record<string, Json>).map(([name, schema]) => [
          name,
          toJsonSchema(schema, !openTargets.has(name), specId, options.allOfComponentsOpenThroughout === true && openTargets.has(name)),
        ]),
      ),
    },
  });

  const compiled = new Map<string, ValidateFunction>();
  function validatorFor(key: string, schema: Json): ValidateFunction {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema, true, specId));
      compiled.set(key, validate);
    }
    return validate;
  }

  function schemaProblems(where: string, key: string, schema: Json, value: unknown): string[] {
    const validate = validatorFor(key, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}${error.instancePath || ""} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ""}`,
    );
  }

  const API_PREFIX = new URL(spec.servers[0].url).pathname.replace(/\/+$/, ""); // Pinterest: "/v5"; PayPal: ""
  const templates = Object.keys(spec.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+)\\?\}/g, "(?<$1>[^/]+)")}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);

  function operationFor(method: string, path: string): Operation | null {
    for (const { template, pattern } of templates) {
      const match = pattern.exec(path);
      const definition = match && spec.paths[template][method.toLowerCase()];
      if (definition) {
        const pathParams = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
        return { id: definition.operationId, template, method, definition, pathParams };
      }
    }
    return null;
  }

  function parameters(operation: Operation): Json[] {
    const pathLevel = spec.paths[operation.template].parameters ?? [];
    return [...pathLevel, ...(operation.definition.parameters ?? [])].map((parameter: Json) =>
      parameter.$ref ? spec.components.parameters[parameter.$ref.split("/").pop()] : parameter,
    );
  }

  /** A schema with a top-level $ref to a component followed. */
  function resolved(schema: Json): Json {
    return typeof schema?.$ref === "string" ? resolved(spec.components.schemas[schema.$ref.split("/").pop()]) : schema;
  }

  function coerce(value: string, schema: Json): unknown {
    const type = schema?.type;
    if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
    return value;
  }

  /** What does not conform in one request/answer exchange: [] when all is well. */
  function conformanceProblems(exchange: Exchange, apiBase: URL, options: { request?: boolean } = {}): string[] {
    const basePath = apiBase.pathname.replace(/\/+$/, "");
    if (!exchange.url.pathname.startsWith(`${basePath}/`)) return [`${exchange.method} ${exchange.url} is not under the API base ${apiBase}`];
    const path = exchange.url.pathname.slice(basePath.length);
    const operation = operationFor(exchange.method, path);
    if (!operation) return [`${exchange.method} ${API_PREFIX}${path} is not an operation of the OpenAPI description`];
    const label = `${operation.id}:`;
    const problems: string[] = [];
    if (options.request !== false) problems.push(...requestProblems(exchange, operation, label));

    // Response.
    if (exchange.status !== undefined) {
      const status = String(exchange.status);
      const responses = operation.definition.responses;
      const statusKey = responses[status] ? status : responses[`${status[0]}XX`] ? `${status[0]}XX` : responses.default ? "default" : null;
      if (statusKey) {
        // Declared answer headers: a required one must be there, and each one there must fit its schema.
        for (const [name, header] of Object.entries((responses[statusKey].headers ?? {}) as Record<string, Json>)) {
          const value = exchange.responseHeaders?.get(name);
          if (value === null || value === undefined) {
            if (header.required) problems.push(`${label} answered ${status} without the ${name} header`);
          } else {
            problems.push(
              ...schemaProblems(
                `${label} response ${status} header ${name}`,
                `${operation.id}#header:${statusKey}:${name}`,
                header.schema,
                coerce(value, resolved(header.schema)),
              ),
            );
          }
        }
      }
      if (!statusKey) {
        problems.push(`${label} answered ${status}, which the operation does not describe`);
      } else if (responses[statusKey].content) {
        const content = responses[statusKey].content;
        const answeredType = (exchange.responseHeaders?.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
        if (!content[answeredType]) {
          problems.push(`${label} answered ${status} with content type "${answeredType}", not ${Object.keys(content).join(", ")}`);
        } else {
          let body: unknown;
          try {
            body = JSON.parse(exchange.responseBody ?? "");
          } catch {
            problems.push(`${label} answered ${status} with a body that is not JSON`);
          }
          if (body !== undefined) {
            problems.push(
              ...schemaProblems(`${label} response ${status}`, `${operation.id}#response:${statusKey}:${answeredType}`, content[answeredType].schema, body),
            );
          }
        }
      }
    }
    return problems;
  }

  function requestProblems(exchange: Exchange, operation: Operation, label: string): string[] {
    const problems: string[] = [];
    // Parameters: path and query, nothing undeclared.
    const declared = parameters(operation);
    const queryNames = new Set(exchange.url.searchParams.keys());
    for (const parameter of declared) {
      const key = `${operation.id}#param:${parameter.in}:${parameter.name}`;
      if (parameter.in === "path") {
        const value = coerce(operation.pathParams[parameter.name], resolved(parameter.schema));
        problems.push(...schemaProblems(`${label} path ${parameter.name}`, key, parameter.schema, value));
      } else if (parameter.in === "query") {
        queryNames.delete(parameter.name);
        // A list sent with explode: false is one comma-separated value (OpenAPI form style); otherwise the name repeats.
        // `arrayQueryCommaSeparated`: the provider reads every list as one comma-separated value whatever the
        // description's default style says (Etsy: see decision 094).
        const commaList = parameter.explode === false || (parameter.explode === undefined && options.arrayQueryCommaSeparated === true);
        const exploded = exchange.url.searchParams.getAll(parameter.name);
        const values = commaList && resolved(parameter.schema)?.type === "array" ? exploded.flatMap((value) => value.split(",")) : exploded;
        if (commaList && exploded.length > 1)
          problems.push(`${label} query parameter ${parameter.name} is repeated, but the description sends it as one comma-separated value`);
        if (values.length === 0) {
          if (parameter.required) problems.push(`${label} query parameter ${parameter.name} is required`);
          continue;
        }
        const schema = resolved(parameter.schema);
        const value = schema?.type === "array" ? values.map((item) => coerce(item, resolved(schema.items))) : coerce(values[0], schema);
        problems.push(...schemaProblems(`${label} query ${parameter.name}`, key, parameter.schema, value));
      }
    }

    // Security: one of the operation's requirements, each met by all of its schemes (an API key sent in the
    // header or query parameter its scheme names, an Authorization of the scheme's kind).
    const authorization = exchange.requestHeaders.get("authorization") ?? "";
    const requirements: string[][] = (operation.definition.security ?? spec.security ?? []).map((requirement: Json) => Object.keys(requirement));
    const schemeMet = (scheme: string) => {
      const definition = spec.components.securitySchemes[scheme];
      if (definition.type === "http") return new RegExp(`^${definition.scheme}\\s+\\S+`, "i").test(authorization);
      if (definition.type === "oauth2") return /^Bearer\s+\S+/.test(authorization);
      if (definition.type === "apiKey" && definition.in === "header") return Boolean(exchange.requestHeaders.get(definition.name));
      if (definition.type === "apiKey" && definition.in === "query") return Boolean(exchange.url.searchParams.get(definition.name));
      return false;
    };
    for (const requirement of requirements)
      for (const scheme of requirement) {
        const definition = spec.components.securitySchemes[scheme];
        if (definition.type === "apiKey" && definition.in === "query") queryNames.delete(definition.name);
      }
    if (requirements.length > 0 && !requirements.some((requirement) => requirement.every(schemeMet)))
      problems.push(
        `${label} authorization "${authorization.split(" ")[0]}" does not meet the security requirements ${requirements.map((requirement) => requirement.join(" and ")).join(", or ")}`,
      );

    for (const name of queryNames) problems.push(`${label} query parameter ${name} is not declared`);

    // Request body.
    const requestBody = operation.definition.requestBody;
    const sentType = (exchange.requestHeaders.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (!requestBody) {
      if (exchange.requestBody) problems.push(`${label} sends a body, but the operation takes none`);
    } else if (!exchange.requestBody) {
      if (requestBody.required) problems.push(`${label} the request body is required`);
    } else if (!requestBody.content[sentType]) {
      problems.push(`${label} request content type "${sentType}" is not one of ${Object.keys(requestBody.content).join(", ")}`);
    } else {
      let body: unknown;
      try {
        body =
          sentType === "application/x-www-form-urlencoded" ? Object.fromEntries(new URLSearchParams(exchange.requestBody)) : JSON.parse(exchange.requestBody);
      } catch {
        problems.push(`${label} the request body is not valid ${sentType}`);
      }
      if (body !== undefined)
        problems.push(...schemaProblems(`${label} request body`, `${operation.id}#request:${sentType}`, requestBody.content[sentType].schema, body));
    }

    return problems;
  }

  function operationId(exchange: Exchange, apiBase: URL) {
    const path = exchange.url.pathname.slice(apiBase.pathname.replace(/\/+$/, "").length);
    return operationFor(exchange.method, path)?.id ?? null;
  }

  return { spec, conformanceProblems, requestProblems, schemaProblems, operationFor, operationId };
}

export type OpenApiChecker = ReturnType<typeof createOpenApiChecker>;
