/** A wait in words for a message: "1 second", "45 seconds", "3 minutes", "2 hours" (rounded up). */
export function waitInWords(seconds: number): string {
  const [amount, unit] =
    seconds < 120
      ? [Math.max(1, Math.ceil(seconds)), "second"]
      : seconds < 2 * 3600
        ? [Math.ceil(seconds / 60), "minute"]
        : [Math.ceil(seconds / 3600), "hour"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}
