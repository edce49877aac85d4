import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStack } from "../scripts/stack.ts";
const stack = await startStack({ appPort: 8799, sandboxPort: 0, videoPort: 0, persistTo: mkdtempSync(join(tmpdir(), "lh-")), quiet: true });
console.log("UP", stack.appUrl);
await new Promise(() => {});
