import { useEffect, useId, useState } from "react";
import type { PinterestBoard, PinterestBoardSection } from "../../../contracts/pinterest/pinterest.ts";
import { Spinner } from "../spinner.tsx";
import { useToast } from "../shell/toast.tsx";
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
 * way to create a new board. Boards are read once per page view.
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
  const [boards, setBoards] = useState<PinterestBoard[] | null>(null);
  const [boardsError, setBoardsError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [sections, setSections] = useState<PinterestBoardSection[]>([]);
  const [sectionsState, setSectionsState] = useState<"idle" | "loading" | "failed">("idle");
  /** The board whose sections were last answered (loaded or failed). */
  const [sectionsOf, setSectionsOf] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [newName, setNewName] = useState("");
  const [createPending, setCreatePending] = useState(false);
  const { boards: loadBoards, sections: loadSections, createBoard } = pinterest;

  useEffect(() => {
    let current = true;
    setBoards(null);
    setBoardsError(null);
    loadBoards(username, attempt > 0).then(
      (list) => current && setBoards(list),
      (failure: unknown) => {
        if (!current) return;
        setBoardsError(failure instanceof Aborted ? "Reconnect the profile to see its boards." : failureText(failure));
        if (!(failure instanceof Aborted)) toast({ title: BOARDS_FAILED_MESSAGE, description: failureText(failure), kind: "error" });
      },
    );
    return () => {
      current = false;
    };
  }, [username, attempt, loadBoards, toast]);

  const boardId = value.boardId;
  useEffect(() => {
    let current = true;
    setSections([]);
    if (!boardId) return;
    setSectionsState("loading");
    loadSections(username, boardId).then(
      (list) => {
        if (!current) return;
        setSections(list);
        setSectionsState("idle");
        setSectionsOf(boardId);
      },
      (failure: unknown) => {
        if (!current) return;
        setSectionsState("failed");
        setSectionsOf(boardId);
        if (!(failure instanceof Aborted)) toast({ title: SECTIONS_FAILED_MESSAGE, description: failureText(failure), kind: "error" });
      },
    );
    return () => {
      current = false;
    };
  }, [username, boardId, loadSections, toast]);

  async function create() {
    const name = newName.trim();
    if (!name) return;
    setCreatePending(true);
    try {
      const board = await createBoard(username, { boardName: name });
      setBoards((list) => [...(list ?? []), board]);
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
    <div className="board-fields" aria-busy={boards === null || (Boolean(boardId) && sectionsOf !== boardId)}>
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
            <button type="button" className="link-button" onClick={() => setAttempt((n) => n + 1)}>
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

      {sectionsState === "failed" ? (
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
