// `npm start`: build, migrate, seed, then run app + sandbox + video service until Ctrl-C.
import { startStack } from "./stack.ts";

const port = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number`);
  return value;
};

const stack = await startStack({
  appPort: port("PORT", 8787),
  sandboxPort: port("SANDBOX_PORT", 8788),
  videoPort: port("VIDEO_PORT", 8790),
});

console.log(`
  Pinboard Studio is running.

  App             ${stack.appUrl}
  Sandbox         ${stack.sandboxUrl}   (stand-ins for Pinterest, Stripe, e-mail ...; demo blog at ${stack.sandboxUrl}/blog-demo/)
  Video service   ${stack.videoUrl}
  Local data      ${stack.persistTo}

  Press Ctrl-C to stop all three.
`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping app, sandbox and video service ...");
    await stack.stop();
    process.exit(0);
  });
}
