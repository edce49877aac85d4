import { useEffect, useState } from "react";
import { APP_UPDATED_EVENT, CLIENT_VERSION } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";

export const APP_UPDATED_MESSAGE = "The app has been updated, please clear your cache and cookies and refresh your page.";

/**
 * Tells the user when the server runs a newer version than this page's code
 * (spec section 2): from any API response (APP_UPDATED_EVENT) or from the
 * version the root loader reports. Once dismissed it stays away until reload.
 */
export function UpdateNotice() {
  const { env } = useAuth();
  const [state, setState] = useState<"hidden" | "shown" | "dismissed">("hidden");

  useEffect(() => {
    const show = () => setState((current) => (current === "dismissed" ? current : "shown"));
    if (env.appVersion !== CLIENT_VERSION) show();
    window.addEventListener(APP_UPDATED_EVENT, show);
    return () => window.removeEventListener(APP_UPDATED_EVENT, show);
  }, [env.appVersion]);

  if (state !== "shown") return null;
  return (
    <div className="update-notice" role="alert">
      <p className="update-notice__text">{APP_UPDATED_MESSAGE}</p>
      <div className="update-notice__actions">
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Refresh
        </button>
        <button type="button" className="button button--ghost" onClick={() => setState("dismissed")}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
