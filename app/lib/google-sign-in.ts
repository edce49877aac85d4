import type { PublicEnv } from "./public-env.ts";

export const GOOGLE_CALLBACK_PATH = "/auth/google/callback";
export const GOOGLE_MESSAGE_TYPE = "pinboard:google-sign-in";
const STATE_KEY = "pinboard:google-state";

export interface GoogleCallbackMessage {
  type: typeof GOOGLE_MESSAGE_TYPE;
  idToken?: string;
  error?: string;
  state?: string;
}

function randomString() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Google's popup sign-in: opens Google's consent page (the sandbox's locally)
 * and resolves with the ID token it hands back to our callback page, after
 * checking the state we sent. Rejects when the popup is closed or refused.
 */
export function googleSignInPopup(env: Pick<PublicEnv, "googleClientId" | "googleAuthUrl">): Promise<string> {
  const state = randomString();
  sessionStorage.setItem(STATE_KEY, state);
  const url = new URL(env.googleAuthUrl);
  url.search = new URLSearchParams({
    client_id: env.googleClientId,
    redirect_uri: `${window.location.origin}${GOOGLE_CALLBACK_PATH}`,
    response_type: "id_token",
    scope: "openid email profile",
    nonce: randomString(),
    state,
    prompt: "select_account",
  }).toString();
  const width = 480;
  const height = 640;
  const popup = window.open(
    url.toString(),
    "google-sign-in",
    `popup=yes,width=${width},height=${height},left=${Math.round(window.screenX + (window.outerWidth - width) / 2)},top=${Math.round(window.screenY + (window.outerHeight - height) / 2)}`,
  );
  if (!popup) return Promise.reject(new Error("Please allow pop-ups for this site to sign in with Google."));

  return new Promise((resolve, reject) => {
    const done = () => {
      window.removeEventListener("message", onMessage);
      clearInterval(closedWatch);
    };
    const onMessage = (event: MessageEvent<GoogleCallbackMessage>) => {
      if (event.origin !== window.location.origin || event.data?.type !== GOOGLE_MESSAGE_TYPE) return;
      done();
      if (event.data.state !== state) return reject(new Error("Google sign-in failed. Please try again."));
      if (!event.data.idToken)
        return reject(new Error(event.data.error === "access_denied" ? "Google sign-in was cancelled." : "Google sign-in failed. Please try again."));
      resolve(event.data.idToken);
    };
    const closedWatch = setInterval(() => {
      if (popup.closed) {
        done();
        reject(new Error("Google sign-in was cancelled."));
      }
    }, 500);
    window.addEventListener("message", onMessage);
  });
}

/** On the callback page: what Google put in the URL fragment. */
export function readGoogleCallback(hash: string): GoogleCallbackMessage {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return {
    type: GOOGLE_MESSAGE_TYPE,
    idToken: params.get("id_token") ?? undefined,
    error: params.get("error") ?? undefined,
    state: params.get("state") ?? undefined,
  };
}

/** The state this tab sent (for the callback page when it was opened without a popup). */
export function expectedGoogleState(): string | null {
  return sessionStorage.getItem(STATE_KEY);
}
