import { useId, useState } from "react";
import { AI_IMAGE_PROMPT_MAX } from "../../../contracts/content/ai.ts";
import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import { generateAiImage, reasonOf } from "../../lib/generator/api.ts";
import { useToast } from "../shell/toast.tsx";

/**
 * An AI picture for the pin (issue 40 point 15; 12 credits, spec section 9): the user says what it shows (the
 * pin's title to start with), the AI draws it, and it becomes a choice for the pin's picture, chosen for the
 * first slot, and stays in the media library. Offered up front when the post has no picture to use. A failure
 * leaves the pin as it was and says why; nothing is charged then.
 */
export function AiPicture({ title, hasPicture, onPicture }: { title: string; hasPicture: boolean; onPicture(url: string): void }) {
  const id = useId();
  const toast = useToast();
  const [prompt, setPrompt] = useState(title);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function make() {
    const wanted = prompt.trim();
    if (!wanted) {
      setError("Please say what the picture should show.");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const image = await generateAiImage(wanted, `ai-image-${crypto.randomUUID()}`);
      onPicture(image.url);
      toast({ kind: "success", title: "AI picture added", description: "It is on this pin now, and kept in your media library." });
    } catch (failure) {
      toast({ kind: "error", title: "No AI picture was made", description: `${reasonOf(failure)} Your pin is unchanged and no credits were used.` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="field post-editor__ai-picture">
      <legend className="field__label">AI picture</legend>
      {hasPicture ? null : <p className="notice notice--info">This post has no picture to use: describe one and the AI draws it.</p>}
      <label className="field__label" htmlFor={`${id}-prompt`}>
        What the picture shows
      </label>
      <textarea
        id={`${id}-prompt`}
        className="field__input"
        rows={2}
        maxLength={AI_IMAGE_PROMPT_MAX}
        value={prompt}
        disabled={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setPrompt(event.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      {busy ? (
        <div className="post-editor__ai-progress">
          <progress aria-label="Drawing the AI picture" />
          <p className="muted small" role="status">
            Drawing the picture: this takes up to a minute.
          </p>
        </div>
      ) : null}
      <button type="button" className="button button--ghost" onClick={() => void make()} disabled={busy}>
        {busy ? "Drawing…" : `Make an AI picture (${CREDIT_COSTS.aiImage} credits)`}
      </button>
    </fieldset>
  );
}
