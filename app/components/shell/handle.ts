import { useMatches } from "@remix-run/react";

/**
 * What a route may switch off in the site shell, through its Remix `handle`:
 *
 *   export const handle: { shell: ShellHandle } = { shell: { footer: false } };
 *
 * Everything is on unless a route says otherwise; the deepest route that sets
 * a value wins.
 */
export interface ShellHandle {
  footer?: boolean;
  newsletterPopup?: boolean;
  cookieBanner?: boolean;
  /** The referral modal (off on /referral, where the referral card is the page). */
  referralModal?: boolean;
}

export type ShellOptions = Required<ShellHandle>;

const DEFAULTS: ShellOptions = { footer: true, newsletterPopup: true, cookieBanner: true, referralModal: true };

function shellOf(handle: unknown): ShellHandle | undefined {
  if (typeof handle !== "object" || handle === null || !("shell" in handle)) return undefined;
  const shell = (handle as { shell: unknown }).shell;
  return typeof shell === "object" && shell !== null ? (shell as ShellHandle) : undefined;
}

/** The shell parts the current page shows. */
export function useShellOptions(): ShellOptions {
  const matches = useMatches();
  const options = { ...DEFAULTS };
  for (const match of matches) {
    const shell = shellOf(match.handle);
    if (!shell) continue;
    for (const key of Object.keys(DEFAULTS) as (keyof ShellOptions)[]) {
      if (typeof shell[key] === "boolean") options[key] = shell[key];
    }
  }
  return options;
}
