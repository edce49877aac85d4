/**
 * A cached page's inline site styles cut down to the rules its own markup can use (decision 064).
 *
 * Every page carries the site-wide stylesheet in a `<style data-site-styles>` (decision 056) so it paints with
 * no stylesheet request, but most of those rules style things the page does not have (another page's parts,
 * the signed-in navbar, menus and dialogs that only scripts open). The edge cache keeps the page with only
 * the rules that can match its markup; the whole stylesheet is linked for print and applied to the screen once
 * the scripts run (app/lib/inline-styles.tsx SiteStylesLink), before anything they show can appear.
 *
 * A rule is kept unless it cannot match: when every selector in it names a class the markup never uses. Classes
 * inside :not(), :is(), :where() and :has(), and inside attribute selectors, are not required (a rule is dropped
 * only when it surely cannot apply). At-rules with rules inside (@media, @supports, @container, @layer) are cut
 * the same way and dropped when empty; any other at-rule (@font-face, @keyframes, @import) is kept whole.
 * The kept rules stay in their order, so the cascade is the whole stylesheet's.
 */

/** Parts that scripts show on their own right after the first paint, with no click: kept whatever the markup has. */
const SHOWN_BY_SCRIPTS = ["cookie-banner", "update-notice"];

const STYLE_OPEN = '<style data-site-styles="">';
const STYLE_CLOSE = "</style>";

type Rule = { kind: "style"; text: string; selectors: string[][] } | { kind: "group"; prelude: string; rules: Rule[] } | { kind: "other"; text: string };

/** Splits CSS into its top-level statements: `prelude{…}` blocks and `@…;` statements (strings and comments respected). */
function statements(css: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < css.length && css[i] !== ch; i++) if (css[i] === "\\") i++;
    } else if (ch === "/" && css[i + 1] === "*") {
      const end = css.indexOf("*/", i + 2);
      i = end === -1 ? css.length : end + 1;
    } else if (ch === "{") {
      depth++;
    } else if (ch === "}") {
      depth--;
      if (depth === 0) {
        out.push(css.slice(start, i + 1).trim());
        start = i + 1;
      }
    } else if (ch === ";" && depth === 0) {
      out.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  const rest = css.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter((statement) => statement && !statement.startsWith("/*"));
}

/** The selector list's members, split at commas outside parentheses and brackets. */
function selectorList(prelude: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < prelude.length; i++) {
    const ch = prelude[i];
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      out.push(prelude.slice(start, i));
      start = i + 1;
    }
  }
  out.push(prelude.slice(start));
  return out;
}

/** Removes `name(...)` groups (nested parentheses included) from a selector. */
function withoutGroups(selector: string, pattern: RegExp): string {
  let out = selector;
  for (let match = pattern.exec(out); match; match = pattern.exec(out)) {
    let depth = 1;
    let i = match.index + match[0].length;
    for (; i < out.length && depth > 0; i++) {
      if (out[i] === "(") depth++;
      else if (out[i] === ")") depth--;
    }
    out = out.slice(0, match.index) + out.slice(i);
  }
  return out;
}

/** The classes a selector needs the markup to have; null when it cannot be told (always kept). */
function requiredClasses(selector: string): string[] | null {
  if (selector.includes("\\")) return null;
  const plain = withoutGroups(selector, /:(not|is|where|has|matches|-webkit-any)\(/).replace(/\[[^\]]*\]/g, "");
  return [...plain.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]);
}

function parse(css: string): Rule[] {
  return statements(css).map((statement): Rule => {
    const open = statement.indexOf("{");
    if (open === -1) return { kind: "other", text: statement };
    const prelude = statement.slice(0, open).trim();
    if (prelude.startsWith("@")) {
      if (/^@(media|supports|container|layer)\b/i.test(prelude)) return { kind: "group", prelude, rules: parse(statement.slice(open + 1, -1)) };
      return { kind: "other", text: statement };
    }
    const needed = selectorList(prelude).map(requiredClasses);
    // A selector whose classes cannot be told keeps the rule: its list is empty (needs nothing).
    return { kind: "style", text: statement, selectors: needed.map((classes) => classes ?? []) };
  });
}

function kept(rules: Rule[], present: Set<string>): string {
  let out = "";
  for (const rule of rules) {
    if (rule.kind === "other") out += rule.text;
    else if (rule.kind === "style") {
      if (rule.selectors.some((classes) => classes.every((name) => present.has(name)))) out += rule.text;
    } else {
      const inner = kept(rule.rules, present);
      if (inner) out += `${rule.prelude}{${inner}}`;
    }
  }
  return out;
}

let parsed: { css: string; rules: Rule[]; scripted: string[] } | null = null;

function rulesOf(css: string) {
  if (parsed?.css !== css) {
    const classes = new Set([...css.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]));
    const scripted = [...classes].filter((name) =>
      SHOWN_BY_SCRIPTS.some((part) => name === part || name.startsWith(`${part}_`) || name.startsWith(`${part}-`)),
    );
    parsed = { css, rules: parse(css), scripted };
  }
  return parsed;
}

/** The classes written in the markup's class attributes. */
function classesIn(html: string): Set<string> {
  const present = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) for (const name of match[1].split(/\s+/)) if (name) present.add(name);
  return present;
}

/** The CSS with only the rules that can match markup using these classes (and what scripts show on their own). */
export function stylesFor(css: string, present: Set<string>): string {
  const { rules, scripted } = rulesOf(css);
  return kept(rules, new Set([...present, ...scripted]));
}

/** The page with its inline site styles cut to what its markup uses; unchanged when it has none. */
export function withPageStylesOnly(html: string): string {
  const start = html.indexOf(STYLE_OPEN);
  if (start === -1) return html;
  const from = start + STYLE_OPEN.length;
  const end = html.indexOf(STYLE_CLOSE, from);
  if (end === -1) return html;
  const markup = html.slice(0, start) + html.slice(end);
  return html.slice(0, from) + stylesFor(html.slice(from, end), classesIn(markup)) + html.slice(end);
}
