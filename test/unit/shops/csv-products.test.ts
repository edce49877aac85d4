import { describe, expect, it } from "vitest";
import { csvFileProblem, headerFormat, parsePrice, parseProductCsv, problemText, type CsvProgress } from "../../../app/lib/products/csv-products.ts";

// The CSV upload's rules (spec section 5, issue 14) on the pure parsing function the upload's Web Worker runs.

const HEADER = "title,description,price,currency,url,images,categories";
const row = (title: string, extra: Partial<{ description: string; price: string; currency: string; url: string; images: string; categories: string }> = {}) =>
  [
    title,
    extra.description ?? "A lovely thing",
    extra.price ?? "24.00",
    extra.currency ?? "USD",
    extra.url ?? "https://shop.example.com/products/thing",
    extra.images ?? "https://shop.example.com/images/thing-1.jpg",
    extra.categories ?? "Home",
  ].join(",");

describe("CSV products", () => {
  it("asks for a file, and only a .csv one", () => {
    expect(csvFileProblem(null)).toBe("Please select a CSV file to upload.");
    expect(csvFileProblem({ name: "products.xlsx" })).toBe('Please select a CSV file to upload. "products.xlsx" is not a .csv file.');
    expect(csvFileProblem({ name: "Products.CSV" })).toBeNull();
  });

  it("reads a header row, quoted commas and quotes, comma-separated and trimmed images and categories", () => {
    const text = [
      HEADER,
      `"Mug, speckled ""sage""","Holds 12 oz, dishwasher safe",24.00,usd,shop.example.com/products/mug," https://shop.example.com/a.jpg ,https://shop.example.com/b.jpg,, ","Kitchen & Dining , Mugs,"`,
    ].join("\n");
    const result = parseProductCsv(text);
    expect(result.failure).toBeNull();
    expect(result.problems).toEqual([]);
    expect(result.products).toHaveLength(1);
    const [mug] = result.products;
    expect(mug.title).toBe('Mug, speckled "sage"');
    expect(mug.description).toBe("Holds 12 oz, dishwasher safe");
    expect(mug.images.map((image) => image.full)).toEqual(["https://shop.example.com/a.jpg", "https://shop.example.com/b.jpg"]);
    expect(mug.categories).toEqual(["Kitchen & Dining", "Mugs"]);
    expect(mug.currency).toBe("USD");
    expect(mug.url).toBe("https://shop.example.com/products/mug");
    expect(mug.numberOfPinsToGenerate).toBe(5);
    expect(mug.row).toBe(2);
  });

  it("handles a byte-order mark, Windows line ends and empty lines (skipped, but rows keep their spreadsheet numbers)", () => {
    const text = `\uFEFF${HEADER}\r\n\r\n${row("First")}\r\n   \r\n${row("Second", { price: "abc" })}\r\n${row("Third")}\r\n\r\n`;
    const result = parseProductCsv(text);
    expect(result.failure).toBeNull();
    expect(result.products.map((product) => [product.title, product.row])).toEqual([
      ["First", 3],
      ["Third", 6],
    ]);
    expect(result.problems.map(problemText)).toEqual([
      'Row 5, price: "abc" is not a price. Write it as a number such as 24.00, with the currency in the currency column.',
    ]);
    expect(result.products[0].description).toBe("A lovely thing");
  });

  it("lists each bad row with its row number, column and what is wrong, and still loads the good rows", () => {
    const text = [
      HEADER,
      row("Good one"),
      row("", {}),
      row("Bad link", { url: "not a link" }),
      row("Bad picture", { images: `"https://shop.example.com/a.jpg, javascript:alert(1)"` }),
      row("No picture", { images: "" }),
      row("Bad currency", { currency: "dollars" }),
      row("Unquoted, comma"),
      row("Decimal comma", { price: '"24,99"' }),
      row("Good two", { price: `"$1,299.50"`, currency: "" }),
    ].join("\n");
    const result = parseProductCsv(text);
    expect(result.failure).toBeNull();
    expect(result.products.map((product) => product.title)).toEqual(["Good one", "Good two"]);
    expect(result.products[1]).toMatchObject({ price: "1299.50", currency: "USD", row: 10 });
    expect(result.problems.map(problemText)).toEqual([
      "Row 3, title: is empty: each product needs a title.",
      'Row 4, url: "not a link" must be a single web address without spaces, such as https://example.com/my-post.',
      'Row 5, images: "javascript:alert(1)" must be a web address starting with http:// or https://, such as https://example.com/my-post.',
      "Row 6, images: is empty: give at least one picture address (several separated by commas).",
      'Row 7, currency: "dollars" is not a currency code: use three letters such as USD, EUR or GBP.',
      "Row 8 has 8 values but the header row has 7 columns: a value that contains a comma must be in double quotes.",
      'Row 9, price: "24,99" is not a price. Write the decimals after a dot, such as 24.99.',
    ]);
    expect(result.rows).toBe(9);
  });

  it("fails the whole file when a required column is missing, when it is empty, or not text", () => {
    const missing = parseProductCsv(["title,description,price,url", "Mug,Nice,24,https://shop.example.com/mug"].join("\n"));
    expect(missing.products).toEqual([]);
    expect(missing.failure).toBe(
      "The header row (row 1) has no images column. The first row must name the columns: title, description, price, currency, url, images, categories, numberOfPinsToGenerate (title, url and images are required).",
    );
    expect(parseProductCsv("\n\n").failure).toMatch(/^The file is empty/);
    expect(parseProductCsv("PK\u0003\u0004\u0000\u0000binary").failure).toMatch(/^The file is not text/);
  });

  it("reads columns in any order and case, a semicolon-separated file, and numberOfPinsToGenerate", () => {
    const text = [
      "Images;URL;Title;numberofpinstogenerate",
      "https://shop.example.com/a.jpg;https://shop.example.com/p;Planter;3",
      "https://shop.example.com/a.jpg;https://shop.example.com/p;Vase;99",
    ].join("\n");
    const result = parseProductCsv(text);
    expect(result.products.map((product) => [product.title, product.numberOfPinsToGenerate, product.price, product.currency])).toEqual([
      ["Planter", 3, "", ""],
    ]);
    expect(result.problems.map(problemText)).toEqual(['Row 3, numberOfPinsToGenerate: "99" is not a number of pins: use a whole number from 1 to 20.']);
  });

  it("reports a quoted value that is never closed, keeping the rows before it", () => {
    const result = parseProductCsv(
      [HEADER, row("Before"), `"Never closed,desc,24,USD,https://shop.example.com/p,https://shop.example.com/a.jpg,Home`, row("After")].join("\n"),
    );
    expect(result.products.map((product) => product.title)).toEqual(["Before"]);
    expect(result.problems.map(problemText)).toEqual(["Row 3 a quoted value is never closed, so the rest of the file could not be read."]);
  });

  it("reads 10,000 rows, reporting a first page early and then progress", () => {
    const lines = [HEADER];
    for (let i = 1; i <= 10_000; i++)
      lines.push(
        row(`Product ${i}`, {
          url: `https://shop.example.com/products/${i}`,
          images: `"https://shop.example.com/${i}-1.jpg, https://shop.example.com/${i}-2.jpg"`,
        }),
      );
    const reports: CsvProgress[] = [];
    const started = performance.now();
    const result = parseProductCsv(lines.join("\r\n"), { onProgress: (progress) => reports.push(progress) });
    const took = performance.now() - started;
    expect(result.products).toHaveLength(10_000);
    expect(result.problems).toEqual([]);
    expect(result.products.at(-1)).toMatchObject({ title: "Product 10000", row: 10_001 });
    expect(reports[0].products).toHaveLength(50);
    expect(reports.at(-1)!.progress).toBe(1);
    expect(reports.flatMap((report) => report.products)).toHaveLength(10_000);
    const progress = reports.map((report) => report.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // Generous: the benchmark measures it properly; this only catches an accidental quadratic.
    expect(took).toBeLessThan(5_000);
  });

  it("reads prices with symbols and thousands separators", () => {
    expect(parsePrice("24")).toEqual({ ok: true, value: { price: "24", symbolCurrency: null } });
    expect(parsePrice("£ 12.5")).toEqual({ ok: true, value: { price: "12.5", symbolCurrency: "GBP" } });
    expect(parsePrice("12.50€")).toEqual({ ok: true, value: { price: "12.50", symbolCurrency: "EUR" } });
    expect(parsePrice("1,2,3").ok).toBe(false);
    expect(parsePrice("")).toEqual({ ok: true, value: { price: "", symbolCurrency: null } });
    expect(parsePrice("$ 24 €")).toEqual({ ok: true, value: { price: "24", symbolCurrency: "USD" } });
    expect(parsePrice("$").ok).toBe(false);
    // Whitespace inside a value is not a price (a run of carriage returns once cost seconds: decision 078).
    expect(parsePrice(`12.${"\r".repeat(5_000)}50 $`).ok).toBe(false);
  });
});

describe("the delimiter and line ending, read off the header row", () => {
  it("is the delimiter the header holds most of, outside quotes, after blank lines (a comma for one column), and the line ending that ends it", () => {
    expect(headerFormat("title;url;images\r\nA, B;/a;x.jpg\n")).toEqual({ delimiter: ";", newline: "\r\n" });
    expect(headerFormat("\n\n\ufefftitle\turl\timages\nLamp\t/lamp\tl.jpg")).toEqual({ delimiter: "\t", newline: "\n" });
    expect(headerFormat('"title, the\nname";url;images\r')).toEqual({ delimiter: ";", newline: "\r" });
    expect(headerFormat("title\nA;B;C;D\n")).toEqual({ delimiter: ",", newline: "\n" });
    expect(headerFormat("title,url,images")).toEqual({ delimiter: ",", newline: undefined });
  });

  it("keeps a stray carriage return of a CRLF file inside its row", () => {
    const read = parseProductCsv(
      "title,url,images\r\nLamp\r\r\r,https://shop.example/l,https://shop.example/l.jpg\r\nVase,https://shop.example/v,https://shop.example/v.jpg\r\n",
    );
    expect(read.rows).toBe(2);
    expect(read.products.map((product) => product.url)).toEqual(["https://shop.example/l", "https://shop.example/v"]);
  });

  it("reads semicolon and tab files whose values hold the other delimiters", () => {
    const semicolons = parseProductCsv('title;url;images;price\r\n"A, B";https://shop.example/a;https://shop.example/a.jpg;12.50\r\n');
    expect(semicolons.failure).toBeNull();
    expect(semicolons.products.map((product) => product.title)).toEqual(["A, B"]);
    const tabs = parseProductCsv("title\turl\timages\nLamp; small\thttps://shop.example/l\thttps://shop.example/l.jpg\n");
    expect(tabs.products.map((product) => product.title)).toEqual(["Lamp; small"]);
  });
});
