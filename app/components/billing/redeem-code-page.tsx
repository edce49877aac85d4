import { Link } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { REDEEM_ERROR_MESSAGE } from "../../../contracts/billing/plans-api.ts";
import { useAuth } from "../../lib/auth.tsx";
import { LoginPrompt } from "../shell/login-prompt.tsx";
import { redeemCode, serverMessage } from "./billing-api.ts";
import { useBillingConfirm } from "./confirm.tsx";
import { NoticeBox, type Notice } from "./notice.tsx";

/** /redeem-code: a code for a plan (spec section 2); the server's error text, else 'There was an error redeeming your code.' */
export function RedeemCodePage() {
  const { user, reloadUser } = useAuth();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const confirm = useBillingConfirm();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return;
    setBusy(true);
    setNotice(null);
    try {
      // Before the code is used up: what happens to the current plan and this month's credits (decision 082).
      if (!(await confirm.askPlanChange({ redemptionCode: code.trim() }, "Redeem code"))) return;
      const result = await redeemCode(code.trim());
      setNotice({ kind: "success", text: result.message });
      setCode("");
      reloadUser();
    } catch (error) {
      setNotice({ kind: "error", text: serverMessage(error) ?? REDEEM_ERROR_MESSAGE });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="page page--narrow billing-page">
      <h1>Redeem a code</h1>
      {!user ? (
        <LoginPrompt action="redeem a code" />
      ) : (
        <>
          <p className="muted">Enter the code you received to unlock its plan on your account.</p>
          {notice && <NoticeBox notice={notice} />}
          <form className="redeem-form" onSubmit={submit}>
            <label htmlFor="redemption-code">Redemption code</label>
            <input
              id="redemption-code"
              name="redemptionCode"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              placeholder="ABCD-EFGH-JKLM-NPQR"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              required
              maxLength={64}
            />
            <button type="submit" className="button button--primary" disabled={busy || !code.trim()}>
              {busy ? "Redeeming…" : "Redeem code"}
            </button>
          </form>
          <p className="muted">
            See your plan and credits under <Link to="/pricing#manage">Manage subscription</Link>.
          </p>
          {confirm.dialog}
        </>
      )}
    </main>
  );
}
