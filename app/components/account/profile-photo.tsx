import { useState, type ChangeEvent } from "react";
import type { UserCredentials } from "../../../contracts/accounts/user.ts";
import { apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { Avatar } from "../auth/avatar.tsx";
import { TextField } from "../auth/form-controls.tsx";
import { problemMessage } from "../auth/use-account-form.ts";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";

// The server's rules for POST /api/user/image (workers/services/accounts/users.ts), checked first here to spare an upload.
const ACCEPTED_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const MAX_BYTES = 5 * 1024 * 1024;

/** The profile photo block: a preview of the chosen image while it uploads, then the stored one. */
export function ProfilePhoto({ user }: { user: UserCredentials }) {
  const { reloadUser } = useAuth();
  const { toast } = useToast();
  const [preview, setPreview] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const problem = !ACCEPTED_TYPES.includes(file.type)
      ? "Please upload a JPEG, PNG, GIF or WebP image."
      : file.size > MAX_BYTES
        ? "The image must be 5 MB or smaller."
        : null;
    if (problem) {
      setError(problem);
      input.value = "";
      return;
    }
    setError(null);
    const localPreview = URL.createObjectURL(file);
    setPreview(localPreview);
    setPending(true);
    try {
      const body = new FormData();
      body.set("image", file);
      const { imageUrl } = await apiJson<{ imageUrl: string }>("/api/user/image", { method: "POST", body });
      setPreview(imageUrl);
      toast({ title: "Profile photo updated.", kind: "success" });
      reloadUser();
    } catch (failure) {
      setPreview(null);
      setError(problemMessage(failure));
    } finally {
      URL.revokeObjectURL(localPreview);
      setPending(false);
      // The same file can be chosen again after a failure.
      input.value = "";
    }
  }

  return (
    <section className="card profile-block" aria-labelledby="photo-title">
      <h2 id="photo-title">Profile photo</h2>
      <div className="profile-photo">
        <div className="profile-photo__preview" aria-busy={pending || undefined}>
          <Avatar
            imageUrl={preview ?? user.imageUrl}
            firstName={user.firstName}
            lastName={user.lastName}
            size={112}
            alt={pending ? "Preview of your new profile photo" : "Your profile photo"}
          />
          {pending ? (
            <span className="profile-photo__busy">
              <Spinner label="Uploading your photo" />
            </span>
          ) : null}
        </div>
        <TextField
          label="Choose a profile photo"
          hint="JPEG, PNG, GIF or WebP, up to 5 MB. It shows on your public profile."
          className="field__file"
          name="image"
          type="file"
          accept={ACCEPTED_TYPES.join(",")}
          disabled={pending}
          onChange={choose}
          error={error ?? undefined}
        />
      </div>
    </section>
  );
}
