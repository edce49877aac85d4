/**
 * Text a user chose (a name, a profile name, a keyword) inside an e-mail that
 * goes to an address someone typed (docs/decisions/080). Such text is shown
 * quoted and inert in the body, and only a plain name may stand in a subject,
 * so nobody can make our e-mails carry their message or link.
 */

/** The longest name a subject carries: enough for "Anne-Marie O'Donnell-Fitzgerald", too short for a pitch. */
export const PLAIN_NAME_MAX = 40;
/** User text in a body is cut to this many characters. */
export const QUOTED_TEXT_MAX = 120;

/** Control and format characters (zero-width spaces, bidi overrides): they hide text from people and from link filters. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;
const PLAIN_NAME = /^\p{L}[\p{L}\p{M}]*(?:[ '’-]\p{L}[\p{L}\p{M}]*)*$/u;

function tidy(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\t\r\n]/g, " ")
    .replace(INVISIBLE, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The name as a subject may carry it: letters, with single spaces, hyphens or
 * apostrophes between them, at most 40 characters. Null for anything else
 * (digits, dots, "$", a link), and the e-mail then names nobody.
 */
export function plainName(name: string): string | null {
  const tidied = tidy(name);
  return tidied.length > 0 && tidied.length <= PLAIN_NAME_MAX && PLAIN_NAME.test(tidied) ? tidied : null;
}

/**
 * User text that no mail client turns into a link: the "://" of a scheme
 * becomes "[:]//" and a dot that joins two parts of a domain-like word
 * becomes "[.]" (as security reports write links nobody should follow), after
 * full-width and ideographic dots are read as dots and invisible characters
 * are dropped. "J.R.R. Tolkien" and "e.g." keep their dots: no part after
 * them is long enough to be a domain's.
 */
export function inertText(text: string): string {
  const tidied = tidy(text).replace(/\u3002/g, ".");
  const cut = tidied.length > QUOTED_TEXT_MAX ? `${tidied.slice(0, QUOTED_TEXT_MAX - 1)}…` : tidied;
  return cut.replace(/:(?=[/\\]{2})/g, "[:]").replace(/(?<=[\p{L}\p{N}_-])\.(?=[\p{L}\p{N}]{2})/gu, "[.]");
}

/** User text as an e-mail body shows it: inert, between quotation marks. */
export function quoted(text: string): string {
  return `“${inertText(text)}”`;
}

/** "Hi Maya," for a plain first name, else "Hi,". */
export function greeting(firstName: string): string {
  const name = plainName(firstName);
  return name ? `Hi ${name},` : "Hi,";
}
