/** HTML helpers shared by the sandbox's pages (consent screens, the demo blog). */

import { escapeHtml } from "../contracts/html.ts";

export { escapeHtml };

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

/** The one text field of a consent form (a username, a shop name). `hint` is HTML the caller escaped. */
export interface ConsentField {
  name: string;
  label: string;
  value: string;
  pattern: string;
  autocomplete?: string;
  hint?: string;
}

/**
 * The form of a provider's consent page: the authorization request's fields
 * carried through hidden, one text field, and Allow / Cancel (posted as
 * action=allow | deny). A refusal's error is announced and tied to the field.
 */
export function consentForm(options: { action: string; carried: Record<string, string>; field: ConsentField; allowLabel: string; error?: string }): string {
  const { field, error } = options;
  const hidden = Object.entries(options.carried)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n        ");
  return `<form method="post" action="${escapeHtml(options.action)}">
        ${error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : ""}
        ${hidden}
        <label for="${escapeHtml(field.name)}">${escapeHtml(field.label)}</label>
        <input id="${escapeHtml(field.name)}" name="${escapeHtml(field.name)}" type="text" required pattern="${escapeHtml(field.pattern)}"${field.autocomplete ? ` autocomplete="${escapeHtml(field.autocomplete)}"` : ""} value="${escapeHtml(field.value)}"${error ? ' aria-describedby="form-error"' : ""}>
        ${field.hint ?? ""}
        <div class="actions">
          <!-- Allow comes first: pressing Enter in the field submits with the first button. -->
          <button type="submit" name="action" value="allow">${escapeHtml(options.allowLabel)}</button>
          <button type="submit" name="action" value="deny" formnovalidate class="secondary">Cancel</button>
        </div>
      </form>`;
}

/** The look of a consent page in a provider's colours. */
export function consentPageCss(look: {
  page: string;
  text: string;
  accent: string;
  soft: string;
  border: string;
  radius: string;
  focus: string;
  error: string;
}): string {
  return `
      body { font-family: system-ui, sans-serif; background: ${look.page}; color: ${look.text}; margin: 0; }
      main { max-width: 30rem; margin: 2rem auto; background: #fff; border-radius: ${look.radius}; padding: 2rem; }
      h1 { font-size: 1.5rem; margin-top: 0; }
      label { display: block; margin-top: 1rem; font-weight: 600; }
      input[type="text"] { width: 100%; box-sizing: border-box; padding: 0.6rem; border: 2px solid ${look.border}; border-radius: 1rem; font: inherit; }
      .scopes li { margin: 0.3rem 0; }
      .actions { display: flex; gap: 0.75rem; justify-content: flex-end; margin-top: 1.5rem; }
      button { font: inherit; font-weight: 600; padding: 0.6rem 1.2rem; border-radius: 1.5rem; border: none; background: ${look.accent}; color: #fff; cursor: pointer; }
      button.secondary { background: ${look.soft}; color: ${look.text}; }
      button:focus-visible, input:focus-visible { outline: 3px solid ${look.focus}; outline-offset: 2px; }
      .note { background: #fff8e1; border: 1px solid #f0c36d; padding: 0.6rem 0.8rem; border-radius: 0.5rem; }
      .hint { font-size: 0.9rem; color: #5f5f5f; }
      .error { color: ${look.error}; }
`;
}
