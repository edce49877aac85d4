/** Longest generated file name, extension included (spec section 5). */
export const MAX_FILE_NAME_LENGTH = 100;

// biome-ignore lint/suspicious/noMisleadingCharacterClass: each emoji code point is removed on its own, joiners, variation selectors and skin tones included, so the class lists them one by one.
const EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u{1F3FB}-\u{1F3FF}\u200d\ufe0f\u20e3]/gu;

/**
 * A pin's file name from its title: emoji removed, every run of other
 * non-alphanumeric characters replaced by a dash, a random number added,
 * ending in .jpeg, 100 characters at most.
 */
export function pinFileName(title: string, randomNumber: number = Math.floor(Math.random() * 1_000_000)): string {
  const suffix = `-${Math.abs(Math.trunc(randomNumber))}.jpeg`;
  const slug = title
    .replace(EMOJI, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_FILE_NAME_LENGTH - suffix.length)
    .replace(/-+$/, "");
  return `${slug || "pin"}${suffix}`;
}

/**
 * A video pin's file name: the pin's own file name (the rule above, its random number kept) with `.mp4` for the
 * picture's extension, so "Amalfi-coast-357704.jpeg" makes "Amalfi-coast-357704.mp4", never
 * "Amalfi-coast-357704-jpeg-357275.mp4". Without a file name, one from the title.
 */
export function videoFileName(fileName: string | undefined, title: string, randomNumber?: number): string {
  const stem = (fileName ?? "").replace(/\.(jpe?g|png|webp|gif|mp4)$/i, "");
  const numbered = /^(.*?)-(\d+)$/.exec(stem);
  const picture = numbered ? pinFileName(numbered[1], Number(numbered[2])) : pinFileName(stem || title, randomNumber);
  return picture.replace(/\.jpeg$/, ".mp4");
}
