import { useId, useState } from "react";
import type { PinterestBoard } from "../../../contracts/pinterest/pinterest.ts";
import { failureOf, useApiCache, useApiQuery, useFailureToast } from "../../lib/query.ts";
import { Spinner } from "../spinner.tsx";
import { useToast } from "../shell/toast.tsx";
import { schedulingKeys } from "./reads.ts";
import { Aborted, failureText, type Pinterest } from "./use-pinterest.tsx";

export const BOARDS_FAILED_MESSAGE = "Unable to get all Pinterest boards";
export const SECTIONS_FAILED_MESSAGE = "Unable to get the board sections.";

export interface BoardChoice {
  boardId: string;
  boardName: string;
  sectionId: string | null;
}

/**
 * Choosing a board (and a section when it has some) of a profile, with a
 * way to create a new board. Boards and sections are read through the data
 * layer; pin-board calls are not read again when the window regains focus,
 * as one may ask the user to reconnect the profile.
 */
export function BoardFields({
  pinterest,
  username,
  value,
  onChange,
  allowCreate = true,
  error,
}: {
  pinterest: Pinterest;
  username: string;
  value: BoardChoice;
  onChange(choice: BoardChoice): void;
  allowCreate?: boolean;
  error?: string;
}) {
  const id = useId();
  const toast = useToast();
  const cache = useApiCache();
  const [creating, setCreating] = useState(false);
  const [newName, setNewName] = useState("");
  const [createPending, setCreatePending] = useState(false);
  const { boards: loadBoards, sections: loadSections, createBoard } = pinterest;

  const boardsQuery = useApiQuery(schedulingKeys.boards(username), () => loadBoards(username), { refetchOnWindowFocus: false });
  const boards = boardsQuery.data ?? null;
  const boardsFailure = failureOf(boardsQuery);
  const boardsError = boardsFailure ? (boardsFailure instanceof Aborted ? "Reconnect the profile to see its boards." : failureText(boardsFailure)) : null;
  useFailureToast(boardsQuery, (failure) =>
    failure instanceof Aborted ? null : { title: BOARDS_FAILED_MESSAGE, description: failureText(failure), kind: "error" },
  );

  const boardId = value.boardId;
  const sectionsQuery = useApiQuery(schedulingKeys.sections(username, boardId), () => loadSections(username, boardId), {
    enabled: Boolean(boardId),
    refetchOnWindowFocus: false,
  });
  const sections = boardId ? (sectionsQuery.data ?? []) : [];
  const sectionsFailed = Boolean(boardId) && failureOf(sectionsQuery) !== null;
  useFailureToast(sectionsQuery, (failure) =>
    failure instanceof Aborted ? null : { title: SECTIONS_FAILED_MESSAGE, description: failureText(failure), kind: "error" },
  );

  async function create() {
    const name = newName.trim();
    if (!name) return;
    setCreatePending(true);
    try {
      const board = await createBoard(username, { boardName: name });
      cache.set<PinterestBoard[]>(schedulingKeys.boards(username), (list) => [...(list ?? []), board]);
      onChange({ boardId: board.id, boardName: board.name, sectionId: null });
      setCreating(false);
      setNewName("");
      toast({ title: `Board "${board.name}" created`, kind: "success" });
    } catch (failure) {
      if (!(failure instanceof Aborted)) toast({ title: "Unable to create the board", description: failureText(failure), kind: "error" });
    } finally {
      setCreatePending(false);
    }
  }

  // A board the list does not hold (e.g. the pin's board was removed on Pinterest) stays choosable.
  const options = boards ?? [];
  const missing = value.boardId && !options.some((board) => board.id === value.boardId) ? [{ id: value.boardId, name: value.boardName || value.boardId }] : [];

  return (
    // Busy while the boards or the chosen board's sections load: the section field may appear below the board.
    <div className="board-fields" aria-busy={boards === null || (Boolean(boardId) && sectionsQuery.isPending)}>
      <div className={error ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={`${id}-board`}>
          Board
        </label>
        {boards === null && !boardsError ? (
          <p className="field__hint">
            <Spinner label="Loading boards" /> Loading boards…
          </p>
        ) : null}
        {boardsError ? (
          <p className="field__error" role="alert">
            {BOARDS_FAILED_MESSAGE}: {boardsError}{" "}
            <button type="button" className="link-button" onClick={() => void boardsQuery.refetch()}>
              Try again
            </button>
          </p>
        ) : null}
        <select
          id={`${id}-board`}
          className="field__input field__select"
          value={value.boardId}
          disabled={boards === null && missing.length === 0}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-board-error` : undefined}
          onChange={(event) => {
            const board = [...options, ...missing].find((candidate) => candidate.id === event.target.value);
            onChange({ boardId: board?.id ?? "", boardName: board?.name ?? "", sectionId: null });
          }}
        >
          <option value="">Choose a board</option>
          {[...missing, ...options].map((board) => (
            <option key={board.id} value={board.id}>
              {board.name}
            </option>
          ))}
        </select>
        {error ? (
          <p className="field__error" id={`${id}-board-error`}>
            {error}
          </p>
        ) : null}
      </div>

      {sectionsFailed ? (
        <p className="field__error" role="alert">
          {SECTIONS_FAILED_MESSAGE}
        </p>
      ) : null}
      {sections.length > 0 ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-section`}>
            Section <span className="muted small">(optional)</span>
          </label>
          <select
            id={`${id}-section`}
            className="field__input field__select"
            value={value.sectionId ?? ""}
            onChange={(event) => onChange({ ...value, sectionId: event.target.value || null })}
          >
            <option value="">No section</option>
            {sections.map((section) => (
              <option key={section.id} value={section.id}>
                {section.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      {allowCreate ? (
        creating ? (
          <div className="board-fields__create">
            <div className="field">
              <label className="field__label" htmlFor={`${id}-new`}>
                New board name
              </label>
              <input
                id={`${id}-new`}
                className="field__input"
                value={newName}
                maxLength={180}
                onChange={(event) => setNewName(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    event.preventDefault();
                    void create();
                  }
                }}
              />
            </div>
            <div className="board-fields__create-actions">
              <button type="button" className="chip-button" disabled={createPending || !newName.trim()} onClick={() => void create()}>
                {createPending ? <Spinner label="Creating the board" /> : null} Create board
              </button>
              <button type="button" className="chip-button" onClick={() => setCreating(false)}>
                Cancel
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className="link-button small" onClick={() => setCreating(true)}>
            Create a new board
          </button>
        )
      ) : null}
    </div>
  );
}
