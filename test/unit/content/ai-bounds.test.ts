import { describe, expect, it } from "vitest";
import { charCount, cleanAnswer, collectAnswers, comparisonKey, fitToBounds, keywordPhrases, outOfBoundsMessage } from "../../../workers/ai/bounds.ts";

const sentence = (n: number) => `Sentence number ${n} tells a little more about this cosy autumn soup recipe.`; // 75-76 chars
const paragraph = (sentences: number) => Array.from({ length: sentences }, (_, i) => sentence(i + 1)).join(" ");

describe("cleaning an AI answer", () => {
  it("strips labels, list markers, wrapping quotes and markdown", () => {
    expect(cleanAnswer('Title: "Cozy Autumn Soup"', "title")).toBe("Cozy Autumn Soup");
    expect(cleanAnswer("**Rewritten title:** “Cozy Autumn Soup”", "title")).toBe("Cozy Autumn Soup");
    expect(cleanAnswer("1. 'Cozy Autumn Soup'", "title")).toBe("Cozy Autumn Soup");
    expect(cleanAnswer("Here is your title: Cozy Autumn Soup", "title")).toBe("Cozy Autumn Soup");
    expect(cleanAnswer("Alt text - A bowl of soup on a table.", "altText")).toBe("A bowl of soup on a table.");
    expect(cleanAnswer("Description 2: A warm soup.\n\nMade   in minutes.", "description")).toBe("A warm soup. Made in minutes.");
  });

  it("keeps quotes that are part of the text and words that only look like labels", () => {
    expect(cleanAnswer('"Cozy" and "Warm" Soups', "title")).toBe('"Cozy" and "Warm" Soups');
    expect(cleanAnswer("Pin Ideas: Autumn Soups", "title")).toBe("Pin Ideas: Autumn Soups");
    expect(cleanAnswer("Version Control - A Guide", "title")).toBe("Version Control - A Guide");
  });

  it("keeps a title's first line when the model answered several", () => {
    expect(cleanAnswer("\nCozy Autumn Soup\nWarm Soup Ideas", "title")).toBe("Cozy Autumn Soup");
  });
});

describe("titles are under 40 characters", () => {
  it("accepts 39 characters and cleans without calling it a length repair", () => {
    const title = `${"A".repeat(19)} ${"B".repeat(19)}`;
    expect(fitToBounds(title, "title")).toEqual({ ok: true, text: title, repaired: false });
    expect(fitToBounds('"Cozy Soup"', "title")).toEqual({ ok: true, text: "Cozy Soup", repaired: true });
  });

  it("trims a slightly long title only where a clause ends, never in the middle of a phrase", () => {
    const check = fitToBounds("Cozy Autumn Soups: Recipes for Busy Nights and Lazy Weekends", "title");
    expect(check).toEqual({ ok: true, text: "Cozy Autumn Soups", repaired: true });
    // No clause to end at: asked for again rather than cut to "… for Busy".
    expect(fitToBounds("Cozy Autumn Soup Recipes for Busy Nights and Lazy Weekends", "title")).toMatchObject({ ok: false, reason: "tooLong" });
  });

  it("repairs what the stand-in and real models answer: a cut-off phrase, stray capitals, a word said twice (issue 40 point 3)", () => {
    const source = "12 Cozy Small Living Room Ideas";
    expect(fitToBounds("Your Small living room ideas: 12 Cozy", "title", source)).toEqual({ ok: true, text: "Your small living room ideas", repaired: true });
    expect(fitToBounds("Your Cozy decor: 12 Cozy Small Ideas", "title", source)).toEqual({ ok: true, text: "Your Cozy Decor: 12 Small Ideas", repaired: true });
    // Sentence case keeps names (capitalised in a source that is not in title case) and acronyms.
    expect(fitToBounds("A Weekend in Paris With Kids", "title", "How we spent a weekend in Paris with the kids")).toEqual({
      ok: true,
      text: "A Weekend in Paris with Kids",
      repaired: true,
    });
    expect(fitToBounds("Easy DIY wall art For renters", "title", "How we made wall art in Paris")).toMatchObject({
      ok: true,
      text: "Easy DIY wall art for renters",
    });
    expect(fitToBounds("Trailing punctuation -", "title")).toMatchObject({ ok: true, text: "Trailing punctuation" });
    // A title that is only a cut-off phrase cannot be repaired.
    expect(fitToBounds(": 12 Cozy", "title", source)).toMatchObject({ ok: false });
    for (const answer of ["Your Small living room ideas: 12 Cozy", "Your Cozy decor: 12 Cozy Small Ideas"]) {
      const check = fitToBounds(answer, "title", source);
      expect(check.ok && charCount(check.text)).toBeLessThan(40);
    }
  });

  it("refuses a title far too long, one that cannot be cut between words, and an empty one", () => {
    expect(fitToBounds(Array.from({ length: 20 }, (_, i) => `word${i}`).join(" "), "title")).toMatchObject({ ok: false, reason: "tooLong" });
    expect(fitToBounds("Supercalifragilisticexpialidociousnessly-long", "title")).toMatchObject({ ok: false, reason: "tooLong" });
    expect(fitToBounds('  ""  ', "title")).toMatchObject({ ok: false, reason: "empty" });
  });

  it("counts characters, not UTF-16 units", () => {
    const emoji = "🍲".repeat(39);
    expect(charCount(emoji)).toBe(39);
    expect(fitToBounds(emoji, "title").ok).toBe(true);
  });
});

describe("descriptions are over 200 and under 500 characters", () => {
  it("accepts 201 and 499 characters ending on a sentence, refuses 200 as too short", () => {
    expect(fitToBounds(`${"a".repeat(200)}.`, "description").ok).toBe(true);
    expect(fitToBounds(`${"a".repeat(498)}.`, "description").ok).toBe(true);
    expect(fitToBounds(`${"a".repeat(199)}.`, "description")).toMatchObject({ ok: false, reason: "tooShort" });
  });

  it("ends on a whole sentence: one that stops mid-thought is cut after its last sentence, or asked for again (issue 40 point 3)", () => {
    const whole = paragraph(3);
    const midThought = `${whole} Tap through to read the full post and get every detail of how we did it and what it cost us to`;
    const check = fitToBounds(midThought, "description");
    expect(check).toEqual({ ok: true, text: whole, repaired: true });
    // Hashtags after the last sentence are the pin's, not an unfinished thought.
    const tagged = `${whole} #soup #autumn`;
    expect(fitToBounds(tagged, "description")).toEqual({ ok: true, text: tagged, repaired: false });
    // Nothing whole to end on within bounds.
    expect(fitToBounds(`${"word ".repeat(60)}and then`, "description")).toMatchObject({ ok: false, reason: "unfinished" });
    expect(outOfBoundsMessage("description", { unfinished: 3 })).toBe("The AI could only write descriptions that stop mid-thought. Please try again.");
  });

  it("cuts a slightly long one after its last whole sentence", () => {
    const text = paragraph(8); // about 600 characters
    const check = fitToBounds(text, "description");
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(charCount(check.text)).toBeLessThan(500);
    expect(charCount(check.text)).toBeGreaterThan(200);
    expect(check.text.endsWith("recipe.")).toBe(true);
    expect(text.startsWith(check.text)).toBe(true);
  });

  it("never cuts at a word with an ellipsis: with no sentence ending in range it is asked for again", () => {
    const text = "word ".repeat(110).trim(); // 549 characters, no sentence end
    expect(fitToBounds(text, "description")).toMatchObject({ ok: false, reason: "tooLong" });
  });

  it("refuses one far too long", () => {
    expect(fitToBounds(paragraph(12), "description")).toMatchObject({ ok: false, reason: "tooLong" });
  });
});

describe("alt text is at most 500 characters", () => {
  it("describes the picture and never names a host or address (issue 40 point 3)", () => {
    // The stand-in's own answer.
    expect(fitToBounds("A photo showing cozy small living room ideas, from 127.0.0.1.", "altText")).toMatchObject({
      ok: true,
      text: "A photo showing cozy small living room ideas.",
    });
    expect(fitToBounds("A bowl of soup on a wooden table, from https://blog.example.com/soup.jpg", "altText")).toMatchObject({
      text: "A bowl of soup on a wooden table",
    });
    expect(fitToBounds("A grey sofa at linenandlark.com under a window.", "altText")).toMatchObject({ text: "A grey sofa under a window." });
    expect(fitToBounds("https://images.example.com/a.jpg", "altText")).toMatchObject({ ok: false, reason: "empty" });
  });

  it("accepts 500, trims 600 at a sentence, refuses 900", () => {
    expect(fitToBounds("a".repeat(500), "altText").ok).toBe(true);
    const trimmed = fitToBounds(paragraph(8), "altText");
    expect(trimmed.ok && charCount(trimmed.text)).toBeLessThanOrEqual(500);
    expect(fitToBounds(paragraph(12), "altText")).toMatchObject({ ok: false, reason: "tooLong" });
  });
});

describe("equal answers", () => {
  it("compare case-, whitespace- and closing-punctuation-insensitively", () => {
    expect(comparisonKey("Cozy  Autumn\nSoup")).toBe(comparisonKey("cozy autumn soup."));
    expect(comparisonKey("Cozy Autumn Soup")).not.toBe(comparisonKey("Cozy Autumn Soups"));
  });

  it("are turned away when unique results are wanted, including the text being rewritten", () => {
    const collected = collectAnswers({ accepted: [], rejected: {} }, ["Cozy Soup", "cozy  SOUP", "Warm Soup", "Autumn soup!", "Hot Soup"], {
      kind: "title",
      wanted: 3,
      unique: true,
      avoid: ["Autumn Soup"],
    });
    expect(collected.accepted).toEqual(["Cozy Soup", "Warm Soup", "Hot Soup"]);
    expect(collected.rejected).toEqual({ duplicate: 2 });
  });

  it("are kept when duplicates are allowed, and bad answers are counted by reason", () => {
    const collected = collectAnswers({ accepted: ["Cozy Soup"], rejected: { tooLong: 1 } }, ["Cozy Soup", "", "x ".repeat(60)], {
      kind: "title",
      wanted: 5,
      unique: false,
    });
    expect(collected.accepted).toEqual(["Cozy Soup", "Cozy Soup"]);
    expect(collected.rejected).toEqual({ tooLong: 2, empty: 1 });
  });
});

describe("keywords", () => {
  it("are one phrase per line; blank lines and repeats are dropped", () => {
    expect(keywordPhrases("autumn soup\n\n  easy   dinner \r\nAutumn Soup\n")).toEqual(["autumn soup", "easy dinner"]);
    expect(keywordPhrases("  \n\n")).toEqual([]);
  });
});

describe("the message for answers that stayed out of bounds", () => {
  it("names the bound that was missed", () => {
    expect(outOfBoundsMessage("title", { tooLong: 3 })).toBe("The AI could not write a title under 40 characters. Please try again.");
    expect(outOfBoundsMessage("description", { tooShort: 2, tooLong: 1 })).toBe(
      "The AI could not write a description between 200 and 500 characters. Please try again.",
    );
    expect(outOfBoundsMessage("title", { duplicate: 4 })).toMatch(/repeating itself/);
    expect(outOfBoundsMessage("altText", { empty: 3 })).toBe("The AI answered without any text. Please try again.");
  });
});
