// `npm run bench:icu`: whether ICU's set-up (Intl's library: date formats,
// segmenters) is paid per isolate or per runtime process. Each run starts one
// workerd process holding two Workers, so two isolates: the first formats a
// date, as almost any Worker does; then the second builds the word segmenter
// satori builds for line breaking. Also the other way round, to show what the
// first use costs in either isolate. Prints the times per run and their
// medians. (Decision 069: the cold render benchmark makes ICU's first use
// before the render for this reason, and times it apart.)
import { inOneProcess, median } from "./two-isolates.ts";

const runs = Number(process.env.BENCH_ICU_RUNS ?? 5);
const DATE = `new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", dateStyle: "medium", timeStyle: "short" }).format(Date.now())`;
const SEGMENTER = `[...new Intl.Segmenter(undefined, { granularity: "word" }).segment("Fall decor ideas")]`;

const cases: [string, string, string][] = [
  ["a date format in isolate 1, then satori's segmenter in isolate 2", DATE, SEGMENTER],
  ["satori's segmenter in isolate 1, then again in isolate 2", SEGMENTER, SEGMENTER],
];
console.log(`ICU's first use, ${runs} fresh workerd processes per case, two isolates each (ms):`);
for (const [label, first, second] of cases) {
  const firsts: number[] = [];
  const seconds: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [a, b] = await inOneProcess(first, second);
    firsts.push(a);
    seconds.push(b);
  }
  console.log(
    `  ${label}: isolate 1 median ${median(firsts).toFixed(0)} (${firsts.join(", ")}), isolate 2 median ${median(seconds).toFixed(0)} (${seconds.join(", ")})`,
  );
}
