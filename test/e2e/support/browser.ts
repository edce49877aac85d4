import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that keep Chromium off the (closed) network and quiet. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export const appUrl = () => inject("appUrl");
export const sandboxUrl = () => inject("sandboxUrl");

/**
 * One browser per test file, a fresh context per page. Console errors and
 * uncaught page errors fail the test that caused them: noise is a bug.
 */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    const found = problems.splice(0);
    // Joined into one string, so that the failure's one-line summary (all a CI log keeps) shows what they were.
    expect(found.join("\n"), "console errors or page errors during the test").toBe("");
  });
  afterAll(async () => {
    await browser?.close();
  });

  return {
    async newPage(options: { viewport?: { width: number; height: number }; allowConsoleErrors?: RegExp; javaScriptEnabled?: boolean } = {}): Promise<Page> {
      const context = await browser.newContext({
        baseURL: appUrl(),
        viewport: options.viewport ?? { width: 1280, height: 800 },
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on("console", (message) => {
        if (message.type() === "error" && !options.allowConsoleErrors?.test(message.text())) {
          // "Failed to load resource" does not say which: the message's location does.
          const where = message.location().url;
          problems.push(`console error: ${message.text()}${where ? ` (${where}, on ${page.url()})` : ""}`);
        }
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message} (on ${page.url()})`));
      return page;
    },
  };
}
