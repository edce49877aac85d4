import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState } from "react";
import * as v from "valibot";
import { DESIGN_PROFILE_NAME_MAX, DesignSettings } from "../../../contracts/content/design-settings.ts";
import type { DesignSettingsProfilesResponse } from "../../../contracts/content/library.ts";
import {
  deleteDesignProfile,
  fetchDesignProfiles,
  reasonOf,
  renameDesignProfile,
  saveDesignSettings,
  type ActiveDesignSettings,
} from "../../lib/generator/api.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { generatorKeys } from "./generator-keys.ts";
import { NameDialog } from "./name-dialog.tsx";
import { DialogActions } from "../dialog-actions.tsx";

/** Settings from the server, with any field it lacks filled with the defaults. */
export function settingsFrom(active: ActiveDesignSettings | null): DesignSettings {
  const parsed = v.safeParse(DesignSettings, active?.settings ?? {});
  return parsed.success ? parsed.output : v.parse(DesignSettings, {});
}

/** The active design settings with the list of profiles, read under one key for /generate and /singlePin. */
export function useDesignProfiles() {
  return useApiQuery<DesignSettingsProfilesResponse>(generatorKeys.designProfiles, () => fetchDesignProfiles("active"));
}

/**
 * Design-settings profiles (spec section 7): choose one, save, save under a
 * new name, rename, delete, with the messages of section 8. The list and the
 * active profile are the cached answer of useDesignProfiles; each change puts
 * the server's new state there.
 */
export function DesignProfiles({ settings, onLoaded }: { settings: DesignSettings; onLoaded(settings: DesignSettings): void }) {
  const { toast } = useToast();
  const id = useId();
  const cache = useApiCache();
  const answer = useDesignProfiles().data;
  const state = {
    profiles: answer?.designSettingsProfiles ?? [],
    activeId: answer?.activeDesignSettings?.profileId ?? null,
    activeName: answer?.activeDesignSettings?.name ?? null,
  };
  const [pending, setPending] = useState<string | null>(null);
  const [naming, setNaming] = useState<"new" | "rename" | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const keep = (update: (current: DesignSettingsProfilesResponse | undefined) => DesignSettingsProfilesResponse | undefined) =>
    cache.set<DesignSettingsProfilesResponse>(generatorKeys.designProfiles, update);

  /** The server opened a profile (chosen, or the one left after a delete): it is the active one now. */
  const adopt = (opened: DesignSettingsProfilesResponse) => {
    keep(() => opened);
    onLoaded(settingsFrom(opened.activeDesignSettings));
  };

  async function choose(profileId: string) {
    setPending("load");
    try {
      adopt(await fetchDesignProfiles(profileId));
    } catch (error) {
      toast({ title: `Unable to load design settings: ${reasonOf(error)}`, kind: "error" });
    } finally {
      setPending(null);
    }
  }

  async function save(target: { profileId?: string; newProfileName?: string }) {
    setPending("save");
    try {
      const answer = await saveDesignSettings(settings, target);
      keep(() => ({
        designSettingsProfiles: answer.designSettingsProfiles,
        activeDesignSettings: { profileId: answer.profileId, name: answer.newProfileName, settings },
      }));
      toast({ title: `Design settings saved as "${answer.newProfileName}"`, kind: "success" });
    } catch (error) {
      toast({ title: `Unable to save design settings: ${reasonOf(error)}`, kind: "error" });
      throw error;
    } finally {
      setPending(null);
    }
  }

  async function rename(newProfileName: string) {
    if (!state.activeId) return;
    try {
      const answer = await renameDesignProfile(state.activeId, newProfileName);
      keep(
        (current) =>
          current && {
            designSettingsProfiles: answer.designSettingsProfiles,
            activeDesignSettings: { ...current.activeDesignSettings, name: newProfileName },
          },
      );
      setNaming(null);
      toast({ title: `Profile renamed to "${newProfileName}"`, kind: "success" });
    } catch (error) {
      toast({ title: "Unable to rename design profile", description: reasonOf(error), kind: "error" });
      throw error;
    }
  }

  async function remove() {
    if (!state.activeId) return;
    setPending("delete");
    try {
      adopt(await deleteDesignProfile(state.activeId));
      setConfirmDelete(false);
      toast({ title: "Design profile deleted", kind: "success" });
    } catch (error) {
      toast({ title: "Unable to delete design profile", description: reasonOf(error), kind: "error" });
    } finally {
      setPending(null);
    }
  }

  return (
    <div className="design-profiles">
      <label className="field__label" htmlFor={`${id}-profile`}>
        Design profile
      </label>
      <div className="design-profiles__row">
        <select
          id={`${id}-profile`}
          className="field__input"
          value={state.activeId ?? ""}
          disabled={pending !== null}
          onChange={(event) => event.target.value && void choose(event.target.value)}
        >
          {state.activeId === null ? <option value="">Unsaved settings</option> : null}
          {state.profiles.map((profile) => (
            <option key={profile.profileId} value={profile.profileId}>
              {profile.name}
            </option>
          ))}
        </select>
        {pending === "load" ? <Spinner label="Loading design settings" /> : null}
      </div>
      <div className="design-profiles__actions">
        <button
          type="button"
          className="chip-button"
          disabled={pending !== null}
          onClick={() => (state.activeId ? void save({ profileId: state.activeId }).catch(() => undefined) : setNaming("new"))}
        >
          {pending === "save" ? <Spinner /> : null}
          Save
        </button>
        <button type="button" className="chip-button" disabled={pending !== null} onClick={() => setNaming("new")}>
          Save as new
        </button>
        <button type="button" className="chip-button" disabled={pending !== null || !state.activeId} onClick={() => setNaming("rename")}>
          Rename
        </button>
        <button type="button" className="chip-button chip-button--danger" disabled={pending !== null || !state.activeId} onClick={() => setConfirmDelete(true)}>
          Delete
        </button>
      </div>
      <NameDialog
        open={naming !== null}
        title={naming === "rename" ? "Rename design profile" : "Save design settings as a new profile"}
        label="Profile name"
        initial={naming === "rename" ? (state.activeName ?? "") : ""}
        submitLabel={naming === "rename" ? "Rename" : "Save"}
        maxLength={DESIGN_PROFILE_NAME_MAX}
        onCancel={() => setNaming(null)}
        onSubmit={async (name) => {
          if (naming === "rename") await rename(name);
          else {
            await save({ newProfileName: name });
            setNaming(null);
          }
        }}
      />
      <Dialog.Root open={confirmDelete} onOpenChange={(open) => !open && pending === null && setConfirmDelete(false)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Delete this design profile?</Dialog.Title>
            <Dialog.Description className="dialog__text">"{state.activeName}" will be deleted for good.</Dialog.Description>
            <DialogActions>
              <button type="button" className="button button--danger" disabled={pending !== null} onClick={() => void remove()}>
                {pending === "delete" ? <Spinner /> : null}
                Delete profile
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
