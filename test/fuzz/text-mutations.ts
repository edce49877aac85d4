import { BYTE_MUTATORS, concat, utf8, type Mutator, type Random } from "./mutations.ts";

/**
 * Mutations of text formats: XML (feeds and sitemaps), CSV and HTML. Besides
 * the byte-level ones: deep nesting, entity expansion (billion laughs and
 * external entities), enormous names, values and fields, quotes never
 * closed, tags cut or repeated, invalid UTF-8.
 */

/** Some text spliced in at a random place (or, now and then, at the start or the end). */
function splice(bytes: Uint8Array, random: Random, text: Uint8Array): Uint8Array {
  const at = random.chance(0.1) ? 0 : random.chance(0.1) ? bytes.length : random.int(bytes.length + 1);
  return concat(bytes.subarray(0, at), text, bytes.subarray(at));
}

/** Positions of `<` in the text (tags to cut, repeat or break). */
function tagStarts(bytes: Uint8Array): number[] {
  const found: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x3c) found.push(i);
  return found;
}

const repeat = (text: string, times: number) => text.repeat(Math.max(0, times));

const nestingBomb: Mutator = (bytes, random) => {
  const depth = random.pick([1_000, 10_000, 100_000]);
  const name = random.pick(["a", "item", "div", "url", "entry", "x"]);
  return splice(bytes, random, utf8(repeat(`<${name}>`, depth) + (random.chance(0.5) ? repeat(`</${name}>`, depth) : "")));
};

const entityBomb: Mutator = (bytes, random) => {
  const variant = random.int(3);
  let doctype: string;
  if (variant === 0) {
    // Billion laughs: ten entities, each ten of the one before.
    doctype = '<!DOCTYPE lolz [<!ENTITY lol "lol">';
    for (let i = 1; i <= 9; i++) doctype += `<!ENTITY lol${i} "${repeat(i === 1 ? "&lol;" : `&lol${i - 1};`, 10)}">`;
    doctype += "]>";
  } else if (variant === 1) {
    doctype = '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY ext SYSTEM "http://127.0.0.1:1/">]>';
  } else {
    // A quadratic blow-up: one big entity used many times.
    doctype = `<!DOCTYPE q [<!ENTITY big "${repeat("A", 50_000)}">]>`;
  }
  const use = variant === 0 ? "&lol9;" : variant === 1 ? "&xxe;&ext;" : repeat("&big;", 2_000);
  const text = new TextDecoder().decode(bytes);
  const prolog = text.match(/^\s*<\?xml[^>]*\?>/)?.[0] ?? "";
  const rest = text.slice(prolog.length);
  const at = rest.indexOf("<title>");
  const body = at >= 0 ? `${rest.slice(0, at + 7)}${use}${rest.slice(at + 7)}` : `${rest}${use}`;
  return utf8(prolog + doctype + body);
};

const hugeToken: Mutator = (bytes, random) => {
  const size = random.pick([10_000, 100_000, 1_000_000]);
  const kind = random.int(4);
  const text =
    kind === 0
      ? `<${repeat("n", size)}>`
      : kind === 1
        ? ` attr="${repeat("v", size)}"`
        : kind === 2
          ? repeat("&amp;", size / 5)
          : `<![CDATA[${repeat("]", size)}`;
  return splice(bytes, random, utf8(text));
};

const tagSurgery: Mutator = (bytes, random) => {
  const starts = tagStarts(bytes);
  if (!starts.length) return bytes;
  const at = random.pick(starts);
  const end = Math.min(bytes.length, bytes.indexOf(0x3e, at) + 1 || bytes.length);
  switch (random.int(4)) {
    case 0: // the tag cut off
      return concat(bytes.subarray(0, at), bytes.subarray(end));
    case 1: // the tag left open
      return concat(bytes.subarray(0, end - 1), bytes.subarray(end));
    case 2: // the tag many times
      return concat(bytes.subarray(0, at), ...Array.from({ length: random.pick([2, 100, 5_000]) }, () => bytes.subarray(at, end)), bytes.subarray(end));
    default: // a comment, CDATA section or processing instruction never closed
      return concat(bytes.subarray(0, at), utf8(random.pick(["<!--", "<![CDATA[", "<?pi ", "<!DOCTYPE x [", "<!["])), bytes.subarray(at));
  }
};

const oddCharacters: Mutator = (bytes, random) => {
  const pieces = [
    Uint8Array.of(0xff, 0xfe), // a UTF-16 byte-order mark
    Uint8Array.of(0xc3), // a cut UTF-8 sequence
    Uint8Array.of(0xed, 0xa0, 0x80), // a lone surrogate in UTF-8
    Uint8Array.of(0x00),
    utf8("&#x110000;&#0;&#xFFFFFFFF;&#99999999999;"),
    utf8("\u202e\ufeff\u0085\u2028"),
    utf8("&unknown;&amp&lt;&#;"),
  ];
  return splice(bytes, random, random.pick(pieces));
};

export const XML_MUTATORS: Mutator[] = [...BYTE_MUTATORS, nestingBomb, entityBomb, entityBomb, hugeToken, tagSurgery, tagSurgery, tagSurgery, oddCharacters];

const htmlOddities: Mutator = (bytes, random) => {
  // Mostly small runs, now and then a page's worth: each tag the reader handles is a call out of HTMLRewriter.
  const size = random.pick([100, 1_000, 10_000, 100_000]);
  const pieces = [
    `<img srcset="${repeat("a.jpg 1w, ", size / 10)}">`,
    `<img src="${repeat("x", size)}" width="99999999999999999999" height="-1">`,
    repeat('<meta property="og:image" content="/a.jpg">', size / 40),
    repeat("<img src=/i.jpg>", size / 16),
    `<script>${repeat("</scr", size / 5)}`,
    "<svg><template><noscript><style>",
    repeat("<ul><li>", size / 8),
    `<p>${repeat("word ", size / 5)}`,
    "<base href='javascript:alert(1)'><link rel=alternate type=application/rss+xml href='\u0000'>",
    `<time datetime="${repeat("9", size)}">`,
    "<article><header><article></header></article>",
  ];
  return splice(bytes, random, utf8(random.pick(pieces)));
};

export const HTML_MUTATORS: Mutator[] = [...BYTE_MUTATORS, nestingBomb, hugeToken, tagSurgery, tagSurgery, oddCharacters, htmlOddities, htmlOddities];

/** Offsets just after each line break of a CSV (the starts of its records). */
function lineStarts(bytes: Uint8Array): number[] {
  const found = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) found.push(i + 1);
  return found;
}

const csvField: Mutator = (bytes, random) => {
  const size = random.pick([1_000, 10_000, 100_000, 1_000_000]);
  const pieces = [
    `"${repeat("x", size)}"`, // one enormous quoted field
    repeat("y", size), // one enormous bare field
    `"${repeat('""', size / 2)}`, // escaped quotes, never closed
    repeat(",", size / 10), // thousands of columns
    `"${repeat("line\n", size / 5)}"`, // a quoted field of many lines
    `"unclosed,${repeat("z", 100)}`,
    'a"b"c,"d"e',
    '=HYPERLINK("http://x"),@SUM(1),+1,-1',
    repeat("\r", 1000),
    "\u0000\u0001\u0002",
    "\ufeff\ufeff",
  ];
  return splice(bytes, random, utf8(random.pick(pieces)));
};

const csvRecords: Mutator = (bytes, random) => {
  const starts = lineStarts(bytes);
  const at = random.pick(starts);
  const next = starts.find((start) => start > at) ?? bytes.length;
  const record = bytes.subarray(at, next);
  switch (random.int(4)) {
    case 0: // a record many times
      return concat(bytes.subarray(0, next), ...Array.from({ length: random.pick([10, 100, 1_000, 5_000]) }, () => record), bytes.subarray(next));
    case 1: // the header row lost
      return bytes.subarray(next);
    case 2: {
      // the separator changed in one record
      const out = record.slice();
      for (let i = 0; i < out.length; i++) if (out[i] === 0x2c) out[i] = random.pick([0x3b, 0x09, 0x7c, 0x22]);
      return concat(bytes.subarray(0, at), out, bytes.subarray(next));
    }
    default: // line ends changed
      return utf8(new TextDecoder().decode(bytes).replace(/\r?\n/g, random.pick(["\r", "\n\n\n", "\r\r\n", "\u2028"])));
  }
};

export const CSV_MUTATORS: Mutator[] = [...BYTE_MUTATORS, csvField, csvField, csvRecords, csvRecords, oddCharacters];
