/** HTML helpers shared by the sandbox's pages (consent screens, the demo blog). */

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A small standalone page: the stand-in's own look comes in `css`. */
export function standalonePage(title: string, css: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <!-- No favicon request: a browser's 404 for it would read as a failure in the e2e tests. -->
    <link rel="icon" href="data:,">
    <title>${escapeHtml(title)}</title>
    <style>
${css}
    </style>
  </head>
  <body>
    <main>
      ${body}
    </main>
  </body>
</html>
`;
}
