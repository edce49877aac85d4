import { useLocation } from "@remix-run/react";
import { useCallback, useMemo, useState } from "react";
import type { ActivateResponse, AuthorizedPinterestProfile } from "../../../contracts/pinterest/pinterest-connection.ts";
import type { PinterestBoard, PinterestBoardSection } from "../../../contracts/pinterest/pinterest.ts";
import { useAuth } from "../../lib/auth.tsx";
import { connectPinterest, PinterestConnection, ReauthorizationNeeded } from "../../lib/pinterest/connection.ts";
import { ReauthorizeDialog } from "./reauthorize-dialog.tsx";

/** Thrown (and swallowed by callers) when the user cancelled the re-authorisation prompt: the action is aborted. */
export class Aborted extends Error {
  constructor() {
    super("Cancelled");
    this.name = "Aborted";
  }
}

/**
 * The signed-in user's Pinterest profiles and the pin-board calls, for a page:
 * activation, boards, sections and new boards. The answers are kept by the
 * data layer (app/lib/query.ts) under the keys of ./reads.ts, not here. A
 * call that needs the user to reconnect the profile opens the re-authorisation
 * prompt and rejects with `Aborted` if they cancel.
 */
export function usePinterest() {
  const { user, reloadUser } = useAuth();
  const location = useLocation();
  const userId = user?.userId ?? "";
  const connection = useMemo(() => new PinterestConnection(userId), [userId]);
  const profiles: AuthorizedPinterestProfile[] = useMemo(() => user?.authorizedPinterestProfiles ?? [], [user]);
  const activeProfile = profiles.find((profile) => profile.isActive) ?? profiles[0] ?? null;

  const [reauth, setReauth] = useState<{ username: string; reject(error: Error): void } | null>(null);

  /** Runs a pin-board call; when the profile must be reconnected, asks the user (Cancel rejects with Aborted). */
  const guard = useCallback(<T,>(task: () => Promise<T>): Promise<T> => {
    return task().catch((error: unknown) => {
      if (!(error instanceof ReauthorizationNeeded)) throw error;
      return new Promise<T>((_, reject) => setReauth({ username: error.username, reject }));
    });
  }, []);

  /** Activates a profile: its handles and scheduling settings (read through the data layer, which keeps the answer). */
  const activate = useCallback((username: string): Promise<ActivateResponse> => connection.activate(username), [connection]);

  const boards = useCallback((username: string): Promise<PinterestBoard[]> => guard(() => connection.boards(username)), [connection, guard]);

  const sections = useCallback(
    (username: string, boardId: string): Promise<PinterestBoardSection[]> => guard(() => connection.sections(username, boardId)),
    [connection, guard],
  );

  const createBoard = useCallback(
    (username: string, board: { boardName: string; boardDescription?: string }): Promise<PinterestBoard> =>
      guard(() => connection.createBoard(username, board)),
    [connection, guard],
  );

  /** Sends the user to Pinterest to connect (or reconnect) a profile; they come back to this page. */
  const connect = useCallback(() => connectPinterest(location.pathname), [location.pathname]);

  const reauthorizeDialog = (
    <ReauthorizeDialog
      username={reauth?.username ?? null}
      onReauthorize={connect}
      onCancel={() => {
        reauth?.reject(new Aborted());
        setReauth(null);
      }}
    />
  );

  return { user, reloadUser, connection, profiles, activeProfile, activate, boards, sections, createBoard, guard, connect, reauthorizeDialog };
}

export type Pinterest = ReturnType<typeof usePinterest>;

/** A failure's message for a toast (Aborted is not a failure: the user chose it). */
export function failureText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Please try again.";
}
