import { describe, expect, it } from "vitest";
import { checkDeployConfig, envNamesUsed, type DeployConfigInput } from "../../../scripts/deploy-config.ts";

// A small worker, as `npm run deploy:check` reads it: its wrangler.toml, its secrets, its guide and its code.
const WRANGLER = `
name = "shop"
main = "worker.ts"

[vars]
APP_URL = "https://shop.example"
DEV_CONTROLS = "off"

[assets]
directory = "./public"
binding = "ASSETS"

[[d1_databases]]
binding = "DB"
database_name = "shop-db"
database_id = "00000000-0000-4000-8000-000000000000"

[[r2_buckets]]
binding = "MEDIA"
bucket_name = "shop-media"

[[durable_objects.bindings]]
name = "CART"
class_name = "Cart"

[[queues.producers]]
binding = "JOBS"
queue = "jobs"

[[queues.consumers]]
queue = "jobs"
dead_letter_queue = "jobs-dlq"
`;

const SECRETS = `# Signs sessions.
AUTH_SECRET=local-value
STRIPE_SECRET_KEY=sk_test_local
`;

const GUIDE = `# Deploying

## Bindings

### D1 database
| binding | what it is | how to create it |
|---|---|---|
| \`DB\` | The D1 database \`shop-db\`. | \`npx wrangler d1 create shop-db\` |
| \`MEDIA\` | The R2 bucket \`shop-media\`. | \`npx wrangler r2 bucket create shop-media\` |
| \`CART\` | Class \`Cart\`, one per visitor. | Created by the deploy from [[migrations]]. |
| \`JOBS\` | Producer of the queue \`jobs\`. | \`npx wrangler queues create jobs\` |
| \`jobs\` | Consumed by the worker. | Created with \`JOBS\`. |
| \`jobs-dlq\` | Dead-letter queue of jobs. | \`npx wrangler queues create jobs-dlq\` |
| \`ASSETS\` | The browser's files. | Uploaded by the deploy. |

## Secrets

| secret | what it is | where the value comes from |
|---|---|---|
| \`AUTH_SECRET\` | Signs sessions. | 32 random characters. |
| \`STRIPE_SECRET_KEY\` | Stripe's secret key. | Stripe Dashboard, API keys. |

## Variables

| variable | what it is | production value |
|---|---|---|
| \`APP_URL\` | The site's address. | Your domain. |
| \`DEV_CONTROLS\` | Local test controls. | \`off\`: keep it off in production. |

## Steps

| step | what |
|---|---|
| \`deploy\` | Run it. |
`;

const CODE = [
  {
    path: "workers/app.ts",
    text: `import type { Env } from "./env.ts";
export default {
  async fetch(request: Request, env: Env) {
    const rows = await env.DB.prepare("select 1").all();
    await env.JOBS.send({ rows });
    if (env.DEV_CONTROLS === "on") return new Response("dev");
    return env.ASSETS.fetch(request);
  },
};`,
  },
  {
    path: "workers/billing.ts",
    text: `import type { Env } from "./env.ts";
export function charge(c: { env: Env }) {
  const { STRIPE_SECRET_KEY } = c.env;
  return STRIPE_SECRET_KEY;
}
export const cart = (env: Pick<Env, "CART" | "MEDIA">) => env.CART.idFromName("x");`,
  },
  {
    path: "app/routes/home.tsx",
    text: `export const loader = ({ context }: { context: { cloudflare: { env: Env } } }) =>
  ({ url: context.cloudflare.env.APP_URL, secret: context.cloudflare.env["AUTH_SECRET"] });`,
  },
];

const GOOD: DeployConfigInput = { wranglerToml: WRANGLER, devVarsExample: SECRETS, guide: GUIDE, guidePath: "docs/deploy.md", code: CODE };
const check = (change: Partial<DeployConfigInput>) => checkDeployConfig({ ...GOOD, ...change }).problems;
const withCode = (text: string) => [...CODE, { path: "workers/new.ts", text }];
const withoutRow = (name: string) =>
  GUIDE.split("\n")
    .filter((line) => !line.startsWith(`| \`${name}\``))
    .join("\n");

describe("npm run deploy:check: the configuration against the code and the guide (issue 42 point 4)", () => {
  it("passes a worker whose every name is declared and in the guide", () => {
    const report = checkDeployConfig(GOOD);
    expect(report.problems).toEqual([]);
    expect([...report.used.keys()]).toEqual(["APP_URL", "ASSETS", "AUTH_SECRET", "CART", "DB", "DEV_CONTROLS", "JOBS", "MEDIA", "STRIPE_SECRET_KEY"]);
    expect(report.unread).toEqual([]);
  });

  it("fails when the code reads a variable that wrangler.toml does not declare, and says where", () => {
    const problems = check({ code: withCode(`export const limit = (env: Env) => Number(env.SCRAPE_TIMEOUT_MS);`) });
    expect(problems).toEqual([
      "SCRAPE_TIMEOUT_MS is read by the worker code (workers/new.ts:1) but wrangler.toml does not declare it and .dev.vars.example does not list it as a secret.",
    ]);
  });

  it("fails when the code reads a secret that .dev.vars.example does not list", () => {
    const problems = check({ code: withCode(`export const key = (env: Env) => env.OPENAI_API_KEY;`) });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("OPENAI_API_KEY is read by the worker code (workers/new.ts:1)");
  });

  it("fails when the code reads a binding that wrangler.toml does not declare", () => {
    const problems = check({ code: withCode(`export const cache = (env: Env) => env.CACHE_KV.get("x");`) });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("CACHE_KV is read by the worker code");
  });

  it("fails when a variable, a secret or a binding has no row in the guide", () => {
    expect(check({ guide: withoutRow("DEV_CONTROLS") })).toEqual(["DEV_CONTROLS (variable) has no row in the Variables tables of docs/deploy.md."]);
    expect(check({ guide: withoutRow("STRIPE_SECRET_KEY") })).toEqual(["STRIPE_SECRET_KEY (secret) has no row in the Secrets tables of docs/deploy.md."]);
    expect(check({ guide: withoutRow("MEDIA") })).toEqual(["MEDIA (R2 bucket) has no row in the Bindings tables of docs/deploy.md."]);
    expect(check({ guide: withoutRow("jobs-dlq") })).toEqual(["jobs-dlq (dead-letter queue of jobs) has no row in the Bindings tables of docs/deploy.md."]);
  });

  it("fails when a row stands in the wrong section, says nothing on how, or no longer matches anything declared", () => {
    const secretAsVariable = withoutRow("AUTH_SECRET").replace("## Variables\n", "## Variables\n\n| `AUTH_SECRET` | Signs sessions. | Random. |\n");
    expect(check({ guide: secretAsVariable })).toEqual(["AUTH_SECRET (secret) belongs under Secrets, but docs/deploy.md lists it under Variables."]);
    expect(check({ guide: GUIDE.replace("| Stripe Dashboard, API keys. |", "| |") })).toEqual([
      "docs/deploy.md's row for STRIPE_SECRET_KEY must say what it is and how to create or set it (three filled columns).",
    ]);
    expect(check({ guide: GUIDE.replaceAll("shop-media", "a bucket") })).toEqual([
      "docs/deploy.md's row for MEDIA does not name shop-media, which the deploy needs.",
    ]);
    expect(check({ guide: `${GUIDE.replace("## Steps", "| `OLD_KEY` | Gone. | Nowhere. |\n\n## Steps")}` })).toEqual([
      "docs/deploy.md lists OLD_KEY under Variables, but neither wrangler.toml nor .dev.vars.example declares it.",
    ]);
  });

  it("fails when a secret is also set in wrangler.toml [vars]", () => {
    const problems = check({ wranglerToml: WRANGLER.replace("[vars]\n", '[vars]\nSTRIPE_SECRET_KEY = "sk_live_oops"\n') });
    expect(problems).toEqual([
      "STRIPE_SECRET_KEY is a secret (.dev.vars.example) and wrangler.toml [vars] sets it too: a value in [vars] is deployed in plain text; remove it from [vars] and set it with `npx wrangler secret put STRIPE_SECRET_KEY`.",
    ]);
  });

  it("asks the guide for a container's Durable Object binding and its image, and for any binding kind", () => {
    const containers = `${WRANGLER}
[[durable_objects.bindings]]
name = "VIDEO_CONTAINER"
class_name = "VideoContainer"

[[containers]]
class_name = "VideoContainer"
image = "./containers/video/Dockerfile"

[[kv_namespaces]]
binding = "CACHE"
id = "abc"

[[future_kind]]
binding = "FUTURE"
`;
    expect(check({ wranglerToml: containers })).toEqual([
      "CACHE (KV namespace) has no row in the Bindings tables of docs/deploy.md.",
      "VIDEO_CONTAINER (Durable Object running a container) has no row in the Bindings tables of docs/deploy.md.",
      "FUTURE (future_kind) has no row in the Bindings tables of docs/deploy.md.",
    ]);
    const rows =
      "| `VIDEO_CONTAINER` | The video service, class `VideoContainer`. | Built by the deploy. |\n| `CACHE` | KV. | `npx wrangler kv namespace create CACHE` |\n| `FUTURE` | A new kind. | Somehow. |\n";
    expect(check({ wranglerToml: containers, guide: GUIDE.replace("\n## Secrets", `${rows}\n## Secrets`) })).toEqual([
      "docs/deploy.md's row for VIDEO_CONTAINER does not name containers/video/Dockerfile, which the deploy needs.",
    ]);
    const orphan = `${WRANGLER}\n[[containers]]\nclass_name = "Orphan"\nimage = "./Dockerfile"\n`;
    expect(check({ wranglerToml: orphan })).toEqual([
      "wrangler.toml's container Orphan has no Durable Object binding of that class: the worker cannot reach it.",
    ]);
  });

  it("says so when wrangler.toml does not parse", () => {
    expect(check({ wranglerToml: "[vars\nAPP_URL = 1" })[0]).toMatch(/^wrangler.toml does not parse: /);
  });
});

describe("the names the worker code reads from Env", () => {
  const read = (text: string) => [...envNamesUsed([{ path: "x.ts", text }]).keys()];

  it("finds every way the code reads them", () => {
    expect(read(`env.A; c.env.B; this.env.C; this.#env.D; context.cloudflare.env.E; process.env.F; env["G"]; (env as Env).H;`)).toEqual([
      "A",
      "B",
      "C",
      "D",
      "E",
      "F",
      "G",
      "H",
    ]);
    expect(read(`const { I, J: renamed } = env; function f({ env: { K } }: Context) {}`)).toEqual(["I", "J", "K"]);
    expect(read(`function f(e: Pick<Env, "L" | "M">, g: CloudflareBindings["N"], h: Pick<Cloudflare.Env, "O">) {}`)).toEqual(["L", "M", "N", "O"]);
  });

  it("leaves out what is not a read of Env", () => {
    const text = `// env.IN_A_COMMENT
const s = "env.IN_A_STRING";
import.meta.env.SSR;
config.SCREAMING_CONSTANT;
env.appVersion; // the browser's public configuration, camelCase
function f(x: Pick<Other, "NOT_ENV">) {}`;
    expect(read(text)).toEqual([]);
  });

  it("says where each is read", () => {
    const used = envNamesUsed([
      { path: "a.ts", text: "env.A;\n\nenv.A;" },
      { path: "b.tsx", text: "const x = <p>{env.A}</p>;" },
    ]);
    expect(used.get("A")).toEqual(["a.ts:1", "a.ts:3", "b.tsx:1"]);
  });
});
