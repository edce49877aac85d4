import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { ALT_TEXT_MAX_CHARS, DESCRIPTION_MAX_CHARS, DESCRIPTION_MIN_CHARS, TITLE_MAX_CHARS, type RewriteKind } from "../../contracts/content/ai.ts";

/**
 * The instructions sent to the model. Language and tone go into the system
 * prompt; the text to rewrite, the keywords and (on a retry) the answers not
 * to repeat go into the user message. The bounds are stated as the spec
 * states them, with a safer target inside them.
 */
export interface RewritePrompt {
  text: string;
  kind: RewriteKind;
  keywords: string[];
  language: string;
  tone: string;
  /** Answers already given or refused, which the model must not write again. */
  avoid?: string[];
}

const KIND_RULES: Record<RewriteKind, string> = {
  title: `Every title must be under ${TITLE_MAX_CHARS} characters (at most ${TITLE_MAX_CHARS - 1}, aim for 25 to 35), with no quotes, labels, hashtags or emoji.`,
  description:
    `Every description must be over ${DESCRIPTION_MIN_CHARS} and under ${DESCRIPTION_MAX_CHARS} characters ` +
    `(aim for 250 to 450), plain text in one paragraph, with no quotes or labels.`,
};

/** Wraps the user's text so it reads as data, never as instructions. */
function quoted(text: string): string {
  return `"""${text.replace(/"""/g, '"')}"""`;
}

function phraseList(phrases: string[]): string {
  return phrases.map((phrase) => `"${phrase.replace(/"/g, "'")}"`).join("; ");
}

export function rewriteMessages(prompt: RewritePrompt): ChatCompletionMessageParam[] {
  const system = [
    "You write copy for Pinterest pins.",
    `Write in ${prompt.language}.`,
    `Use a ${prompt.tone} tone.`,
    KIND_RULES[prompt.kind],
    `Answer with the ${prompt.kind} only.`,
  ].join("\n");

  const user = [`Rewrite this pin ${prompt.kind}:`, quoted(prompt.text)];
  if (prompt.keywords.length === 0) user.push("No keywords are required: write a free rewrite.");
  else if (prompt.kind === "title") user.push(`Include one of these keywords: ${phraseList(prompt.keywords)}.`);
  else user.push(`Include each of these keywords: ${phraseList(prompt.keywords)}.`);
  if (prompt.avoid && prompt.avoid.length > 0) user.push(`Do not repeat any of these: ${phraseList(prompt.avoid)}.`);

  return [
    { role: "system", content: system },
    { role: "user", content: user.join("\n") },
  ];
}

export function altTextMessages(imageUrl: string, language: string): ChatCompletionMessageParam[] {
  const system = [
    "You write alt text for the images of Pinterest pins, for people who use screen readers.",
    `Write in ${language}.`,
    `Describe what the image shows in one or two plain sentences, at most ${ALT_TEXT_MAX_CHARS} characters (aim for under 250).`,
    'Do not start with "Image of" or "Picture of". Answer with the alt text only.',
  ].join("\n");
  return [
    { role: "system", content: system },
    {
      role: "user",
      content: [
        { type: "text", text: "Write the alt text for this image." },
        { type: "image_url", image_url: { url: imageUrl, detail: "low" } },
      ],
    },
  ];
}
