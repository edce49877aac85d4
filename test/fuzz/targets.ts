import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { zlibSync } from "fflate";
import { parseProductCsv } from "../../app/lib/products/csv-products.ts";
import { demoProductsCsv } from "../../app/lib/products/demo-csv.ts";
import { blogDemo } from "../../sandbox/blog-demo/app.ts";
import { hostile } from "../../sandbox/hostile/app.ts";
import { photonMemoryStats } from "../../workers/render/photon-decode.ts";
import { decodePictureBytes, readPicture } from "../../workers/render/pictures.ts";
import { encodePng, pngChunk } from "../../workers/render/overlay.ts";
import { decodeJpeg, encodeJpeg, pixelModuleMemoryBytes } from "../../workers/render/pixel-module.ts";
import { parseFeed } from "../../workers/scrape/feed.ts";
import { MAX_XML_BYTES } from "../../workers/scrape/fetch.ts";
import { parseSitemap } from "../../workers/scrape/sitemap.ts";
import type { Outcome, Target } from "./campaign.ts";
import { SMALL_FONT_FILES } from "./font-target.ts";
import { HTML_SEED_PATHS } from "./html-target.ts";
import { concat, firstElements, utf8, writeU32 } from "./mutations.ts";
import { JPEG_MUTATORS, PNG_MUTATORS } from "./picture-mutations.ts";
import { CSV_MUTATORS, XML_MUTATORS } from "./text-mutations.ts";

/**
 * The parsers of untrusted bytes whose campaigns run in Node (decision 078),
 * each through the same production code the worker runs: the pixel module's
 * WebAssembly and photon (test/fuzz/node-hooks.ts, or the unit project's
 * aliases, load them as workerd does), the products CSV reader, the feed and
 * sitemap readers. Font uploads (font-target.ts) and scraped HTML
 * (html-target.ts) run in workerd; their seeds are read here for bench:fuzz.
 */

const ROOT = join(import.meta.dirname, "..", "..");

// Memory is measured after a full collection: V8's collector, exposed to this process.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** This process's CPU time in milliseconds: a busy machine's other processes do not count against a parser. */
const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The JavaScript heap (with array buffers) after a collection, and `more`. */
function nodeMemory(more: () => Record<string, number> = () => ({})): () => Record<string, number> {
  return () => {
    collectGarbage();
    const usage = process.memoryUsage();
    return { "JavaScript heap": usage.heapUsed + usage.arrayBuffers, ...more() };
  };
}

/** What every Node target shares: its CPU clock and its memory. */
const inNode = { clock: processCpuMs, memory: nodeMemory() };
const file = (...path: string[]) => new Uint8Array(readFileSync(join(ROOT, ...path)));
const text = new TextDecoder();

// ---------------------------------------------------------------- pictures

/** A picture of `width` x `height` with some detail (gradients and a pattern), as RGBA. */
function testPicture(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      rgba.set([(x * 255) / width, (y * 255) / height, ((x ^ y) * 16) & 255, 255], i);
    }
  return rgba;
}

const pictureMemory = nodeMemory(() => ({ "pixel module": pixelModuleMemoryBytes(), photon: photonMemoryStats().bytes }));

/**
 * The render's decode (pixel module, photon for the rest), the upload check (photon) and the pixel module's
 * decoder alone, without the header checks in front of it. Accepted when the render gets a picture.
 */
function runPicture(bytes: Uint8Array): Outcome {
  const decoded = decodePictureBytes(bytes);
  if (decoded && decoded.data.length !== decoded.width * decoded.height * 4) throw new Error("a decoded picture's pixels do not match its size");
  const upload = readPicture(bytes);
  if (upload && "unreadable" in upload && !upload.unreadable) throw new Error("an upload was refused without a reason");
  decodeJpeg(bytes);
  return decoded ? "accepted" : "refused";
}

/**
 * Small pictures, so that a case costs its damage and not its size (decision 078): the fixtures (97 to 200 px:
 * baseline 4:4:4, 4:2:0, 4:2:2 and 4:4:0 at odd sizes, greyscale, progressive, restart markers) and the pixel
 * module's own baseline output at 17 x 9 to 128 x 96. A 1200 x 800 photo cost 37 ms a case, these 2 to 4.
 */
export function jpegTarget(): Target {
  const fixtures = readdirSync(join(ROOT, "test", "fixtures", "jpeg")).map((name) => file("test", "fixtures", "jpeg", name));
  const encoded = (
    [
      [17, 9, 40],
      [32, 32, 75],
      [48, 32, 90],
      [128, 96, 85],
    ] as const
  ).map(([width, height, quality]) => encodeJpeg(testPicture(width, height), width, height, quality));
  return { ...inNode, name: "JPEG pictures", seeds: [...fixtures, ...encoded], mutators: JPEG_MUTATORS, run: runPicture, memory: pictureMemory };
}

/** A PNG of any colour type, bit depth and interlacing, with a palette and transparency where they apply. */
function pngFile(width: number, height: number, colorType: 0 | 2 | 3 | 4 | 6, bitDepth: 1 | 2 | 4 | 8 | 16, interlaced: boolean): Uint8Array {
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  const rowBytes = (w: number) => Math.ceil((w * channels * bitDepth) / 8);
  // Adam7's passes (or the whole picture), each row a filter byte (cycling through all five) and random samples.
  const passes = interlaced
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ].map(([x0, y0, dx, dy]) => [Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)])
    : [[width, height]];
  const raw: number[] = [];
  let state = 7;
  for (const [w, h] of passes) {
    if (w <= 0 || h <= 0) continue;
    for (let y = 0; y < h; y++) {
      raw.push(y % 5);
      for (let i = 0; i < rowBytes(w); i++) raw.push((state = (state * 1103515245 + 12345) >>> 0) >>> 24);
    }
  }
  const header = new Uint8Array(13);
  writeU32(header, 0, width);
  writeU32(header, 4, height);
  header.set([bitDepth, colorType, 0, 0, interlaced ? 1 : 0], 8);
  const parts = [Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), pngChunk("IHDR", header)];
  if (colorType === 3) {
    parts.push(
      pngChunk(
        "PLTE",
        Uint8Array.from({ length: 3 * (1 << bitDepth) }, (_, i) => (i * 37) & 255),
      ),
    );
    parts.push(
      pngChunk(
        "tRNS",
        Uint8Array.from({ length: 1 << (bitDepth - 1) }, (_, i) => i * 9),
      ),
    );
  }
  if (colorType === 0) parts.push(pngChunk("tRNS", Uint8Array.of(0, 1)));
  parts.push(pngChunk("IDAT", zlibSync(Uint8Array.from(raw))), pngChunk("IEND", new Uint8Array(0)));
  return concat(...parts);
}

export function pngTarget(): Target {
  const drawn = encodePng({ width: 40, height: 30, data: testPicture(40, 30) });
  const made = [
    pngFile(13, 7, 3, 1, false),
    pngFile(9, 11, 3, 4, true),
    pngFile(16, 16, 3, 8, false),
    pngFile(10, 6, 0, 2, false),
    pngFile(12, 12, 0, 16, true),
    pngFile(8, 9, 2, 16, false),
    pngFile(11, 5, 4, 8, false),
    pngFile(19, 23, 6, 8, true),
  ];
  const demo = ["avatar.png", "favicon.png"].map((name) => file("sandbox", "blog-demo", "images", name));
  return { ...inNode, name: "PNG pictures", seeds: [drawn, ...made, ...demo], mutators: PNG_MUTATORS, run: runPicture, memory: pictureMemory };
}

// ---------------------------------------------------------------- fonts

/** The font campaign's seeds (font-target.ts: its cases are read in workerd). */
export function fontSeeds(format: "woff" | "woff2"): Uint8Array[] {
  return SMALL_FONT_FILES.map((name) => file("node_modules", `${name}.${format}`));
}

// ---------------------------------------------------------------- CSV, feeds, sitemaps

/** The products CSV as the page reads it (File.text(): UTF-8, damaged bytes replaced). Refused: the whole file failed. */
function runCsv(bytes: Uint8Array): Outcome {
  const result = parseProductCsv(text.decode(bytes));
  return result.failure ? "refused" : "accepted";
}

/**
 * The reader's time grows with rows and bytes (20,000 rows of 500 bytes: 1.9 s; 200,000 short rows: 1 s), so
 * inputs are cut to the file bench:products measures against its 2 s target: 10,000 rows, 4 MB.
 */
function csvOfMeasuredSize(bytes: Uint8Array): Uint8Array {
  let end = Math.min(bytes.length, 4 * 1024 * 1024);
  // A row ends at "\n", "\r\n" or a lone "\r" (a file of lone "\r"s is 64,000 rows in 4 MB, as Papa reads it).
  for (let i = 0, rows = 0; i < end; i++) {
    const ends = bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a);
    if (ends && ++rows === 10_000) end = i + 1;
  }
  return bytes.subarray(0, end);
}

export function csvTarget(): Target {
  const demo = utf8(demoProductsCsv("https://shop.example"));
  const small = utf8(
    'title;url;images;price\r\n"A ""quoted"" vase";https://shop.example/a;"https://shop.example/a.jpg, https://shop.example/b.jpg";$12.50\r\n',
  );
  const tabs = utf8("\ufefftitle\turl\timages\tcategories\tnumberOfPinsToGenerate\nLamp\t/lamp\thttps://x.example/l.jpg\tHome, Light\t3\n");
  return { ...inNode, name: "products CSV", seeds: [demo, small, tabs], mutators: CSV_MUTATORS, run: runCsv, fit: csvOfMeasuredSize };
}

async function served(app: { request(path: string): Response | Promise<Response> }, path: string): Promise<Uint8Array> {
  const response = await app.request(path);
  return new Uint8Array(await response.arrayBuffer());
}

const RDF_FEED = utf8(
  `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
    `<channel rdf:about="https://news.example/"><title>News</title><link>https://news.example/</link></channel>` +
    `<item rdf:about="https://news.example/1"><title>First &amp; best</title><link>https://news.example/1</link><description>&lt;p&gt;Hello&lt;/p&gt;</description><dc:date>2026-01-02</dc:date></item></rdf:RDF>`,
);

/** What the scrape reads of a feed or sitemap: at most MAX_XML_BYTES (the guarded fetch refuses the rest). */
const asFetched = (bytes: Uint8Array) => bytes.subarray(0, MAX_XML_BYTES);

export async function feedTarget(): Promise<Target> {
  const seeds = [
    firstElements(await served(blogDemo, "http://blog.example/feed.xml"), "item", 3),
    await served(hostile, "http://blog.example/atom.xml"),
    RDF_FEED,
  ];
  return {
    ...inNode,
    name: "feed XML",
    seeds,
    mutators: XML_MUTATORS,
    run: (bytes) => (parseFeed(text.decode(bytes), "https://blog.example/feed.xml") ? "accepted" : "refused"),
    fit: asFetched,
  };
}

export async function sitemapTarget(): Promise<Target> {
  const files = await Promise.all(["sitemap.xml", "sitemap_index.xml", "sitemap-archive.xml"].map((name) => served(blogDemo, `http://blog.example/${name}`)));
  const seeds = files.map((xml) => firstElements(xml, "url", 4));
  return {
    ...inNode,
    name: "sitemap XML",
    seeds,
    mutators: XML_MUTATORS,
    run: (bytes) => (parseSitemap(text.decode(bytes)) ? "accepted" : "refused"),
    fit: asFetched,
  };
}

/** The scraped-HTML campaign's seed pages (HTML_SEED_PATHS), as the sandbox serves them. */
export async function htmlSeeds(): Promise<Uint8Array[]> {
  const apps = { "/blog-demo/": blogDemo, "/hostile/": hostile };
  return Promise.all(
    HTML_SEED_PATHS.map((path) => {
      const [prefix, app] = Object.entries(apps).find(([prefix]) => path.startsWith(prefix))!;
      return served(app, `http://blog.example/${path.slice(prefix.length)}`);
    }),
  );
}

/** Every target that runs in Node, in the order the suite and the benchmark run them. */
export async function nodeTargets(): Promise<Target[]> {
  return [jpegTarget(), pngTarget(), csvTarget(), await feedTarget(), await sitemapTarget()];
}
