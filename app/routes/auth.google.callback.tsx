import type { MetaFunction } from "@remix-run/cloudflare";
import { useEffect, useState } from "react";
import { storeTokens, type Tokens } from "../lib/api-client.ts";
import { expectedGoogleState, readGoogleCallback } from "../lib/google-sign-in.ts";

export const meta: MetaFunction = () => [{ title: "Signing in with Google" }];

/**
 * Where Google sends the browser back with the ID token (in the URL fragment).
 * In the popup it hands the token to the page that opened it and closes; opened
 * on its own (pop-ups blocked), it finishes the sign-in itself.
 */
export default function GoogleCallback() {
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const message = readGoogleCallback(window.location.hash);
    if (window.opener && window.opener !== window) {
      (window.opener as Window).postMessage(message, window.location.origin);
      window.close();
      return;
    }
    if (!message.idToken || message.state !== expectedGoogleState()) {
      setProblem("Google sign-in failed. Please try again.");
      return;
    }
    fetch("/api/signInWithGoogle", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ idToken: message.idToken }),
    })
      .then(async (response) => {
        const body = (await response.json()) as Tokens & { error?: string };
        if (!response.ok) throw new Error(body.error ?? "Google sign-in failed. Please try again.");
        storeTokens(body);
        // A full page load, so every loader sees the new session cookie.
        window.location.replace(response.status === 201 ? "/onboarding" : "/");
      })
      .catch((error: Error) => setProblem(error.message));
  }, []);

  return (
    <main className="page page--narrow">
      {problem ? (
        <p role="alert">{problem}</p>
      ) : (
        <p role="status" aria-live="polite">
          Signing you in with Google...
        </p>
      )}
    </main>
  );
}
