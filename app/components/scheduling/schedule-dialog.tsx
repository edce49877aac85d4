import * as Dialog from "@radix-ui/react-dialog";
import { Link } from "@remix-run/react";
import { useId, useState, type FormEvent } from "react";
import { REPEAT_INTERVAL_DAYS } from "../../../contracts/pinterest/scheduling-api.ts";
import { sameLinkSpread, type ScheduleTarget } from "../../lib/pinterest/bulk-schedule.ts";
import { dateTimeFieldValue, instantOfDateTimeField, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { failureOf, useApiQuery } from "../../lib/query.ts";
import { Spinner } from "../spinner.tsx";
import { BoardFields, type BoardChoice } from "./board-fields.tsx";
import { failureText, type Pinterest } from "./use-pinterest.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { ProfileField } from "./profile-select.tsx";
import { schedulingKeys } from "./reads.ts";

const NO_BOARD: BoardChoice = { boardId: "", boardName: "", sectionId: null };

/**
 * The board picker of bulk scheduling (/generate): which profile and board,
 * and when: the next free times of the profile's queue, or a date and time in
 * the profile's time zone.
 */
export function ScheduleDialog({
  open,
  count,
  links = [],
  pinterest,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  /** How many pins will be scheduled. */
  count: number;
  /** Their links (pins of one post share one): where several share a link, more boards are offered (issue 40 point 1). */
  links?: readonly string[];
  pinterest: Pinterest;
  onCancel(): void;
  /** Called with the choice; the dialog closes at once and the page shows the progress. */
  onConfirm(target: ScheduleTarget, moreBoards: BoardChoice[]): void;
}) {
  const id = useId();
  const { profiles, activeProfile, activate, connect } = pinterest;
  const [picked, setPicked] = useState(activeProfile?.username ?? "");
  // Until one is picked, the active profile (which may arrive after the page).
  const username = picked || activeProfile?.username || "";
  const [board, setBoard] = useState<BoardChoice>(NO_BOARD);
  const [when, setWhen] = useState<"Queue" | "SpecificDate">("Queue");
  /** The date and time typed, or null while the user has not touched the field. */
  const [at, setAt] = useState<string | null>(null);
  const [allowDuplicate, setAllowDuplicate] = useState(false);
  /** More boards the pins of one link are spread over, besides the board chosen. */
  const [moreBoards, setMoreBoards] = useState<BoardChoice[]>([]);
  const [repeat, setRepeat] = useState(false);
  const [repeatDays, setRepeatDays] = useState("7");
  const [errors, setErrors] = useState<{ board?: string; at?: string; repeat?: string }>({});
  /** When the dialog last opened: the date and time field starts an hour after it. */
  const [openedAt, setOpenedAt] = useState(() => Date.now());

  // When, duplicates and repeating are chosen anew for each batch: a second batch never
  // keeps a time that has passed since, posts a duplicate or repeats by surprise.
  // Set while rendering as the dialog opens (the profile and board stay).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setWhen("Queue");
      setAt(null);
      setAllowDuplicate(false);
      setMoreBoards([]);
      setRepeat(false);
      setErrors({});
      setOpenedAt(Date.now());
    }
  }

  // The profile's activation brings its settings (the zone); it is read while the dialog is open, and not
  // again when the window regains focus (activating makes the profile the active one).
  const activation = useApiQuery(schedulingKeys.activation(username), () => activate(username), {
    enabled: open && Boolean(username),
    refetchOnWindowFocus: false,
  });
  const failure = failureOf(activation);
  // A failed activation shows its failure alone, even when settings were read before.
  const settings = failure ? null : (activation.data?.schedulingSettings ?? null);
  const loading = !settings && !failure && activation.isFetching;
  const status = (failure as { status?: number } | null)?.status;

  const zone = settings?.timezone.value ?? "Etc/GMT";
  // Until the user types a time: an hour after the dialog opened, on the minute, in the profile's zone.
  const atShown = at ?? (settings ? dateTimeFieldValue(Math.ceil((openedAt + 3_600_000) / 60_000) * 60_000, zone) : "");

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!board.boardId) found.board = "Choose the board to pin to";
    let instant: number | null = null;
    if (when === "SpecificDate") {
      instant = instantOfDateTimeField(atShown, zone);
      if (instant === null) found.at = "Enter a date and time";
      else if (instant <= Date.now()) found.at = "Choose a time in the future";
    }
    const days = Number(repeatDays);
    if (repeat && !(/^\d+$/.test(repeatDays.trim()) && days >= REPEAT_INTERVAL_DAYS.min && days <= REPEAT_INTERVAL_DAYS.max)) {
      found.repeat = `Enter whole days from ${REPEAT_INTERVAL_DAYS.min} to ${REPEAT_INTERVAL_DAYS.max}`;
    }
    setErrors(found);
    if (found.board || found.at || found.repeat) return;
    onConfirm(
      {
        pinterestProfileUsername: username,
        boardId: board.boardId,
        boardName: board.boardName,
        sectionId: board.sectionId,
        when: when === "SpecificDate" ? { type: "SpecificDate", at: instant! } : { type: "Queue" },
        allowDuplicate,
        ...(repeat ? { repeatIntervalInDays: days } : {}),
        timeZone: zone,
      },
      spreading ? moreBoards.filter((more) => more.boardId !== board.boardId) : [],
    );
  }

  // Pins of one link post 48 hours apart on one board: where that makes the batch take days, more boards are offered.
  const spreading = when === "Queue" && !allowDuplicate && Boolean(board.boardId);
  const oneBoard = sameLinkSpread(links, 1);
  const withMore = sameLinkSpread(links, 1 + moreBoards.filter((more) => more.boardId !== board.boardId).length);

  const pins = `${count} ${count === 1 ? "pin" : "pins"}`;
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog schedule-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">Schedule {pins}</Dialog.Title>
          {profiles.length === 0 ? (
            <>
              <p className="dialog__text">Connect a Pinterest profile first: pins are posted to its boards.</p>
              <DialogActions>
                <Link className="button button--primary" to="/scheduling">
                  Connect a Pinterest profile
                </Link>
              </DialogActions>
            </>
          ) : (
            <form onSubmit={submit} noValidate>
              {profiles.length > 1 ? (
                <ProfileField
                  id={`${id}-profile`}
                  profiles={profiles}
                  value={username}
                  onChange={(chosen) => {
                    setPicked(chosen);
                    setBoard(NO_BOARD);
                  }}
                />
              ) : (
                <p className="dialog__text">
                  To <strong>{username}</strong>
                </p>
              )}

              {loading ? (
                <p className="muted">
                  <Spinner label="Connecting to Pinterest" /> Connecting to Pinterest…
                </p>
              ) : null}
              {failure ? (
                <div className="notice notice--error" role="alert">
                  {failureText(failure)}
                  {status === 401 || status === 423 ? (
                    <span className="notice__detail">
                      <button type="button" className="link-button" onClick={() => void connect()}>
                        Reconnect {username}
                      </button>
                    </span>
                  ) : null}
                </div>
              ) : null}

              {settings ? (
                <>
                  <BoardFields pinterest={pinterest} username={username} value={board} onChange={setBoard} error={errors.board} />

                  <fieldset className="schedule-dialog__when">
                    <legend className="field__label">When</legend>
                    <label className="check">
                      <input type="radio" name={`${id}-when`} value="Queue" checked={when === "Queue"} onChange={() => setWhen("Queue")} />
                      The next free times in the queue
                    </label>
                    <label className="check">
                      <input type="radio" name={`${id}-when`} value="SpecificDate" checked={when === "SpecificDate"} onChange={() => setWhen("SpecificDate")} />
                      At a date and time
                    </label>
                    {when === "SpecificDate" ? (
                      <div className={errors.at ? "field field--invalid" : "field"}>
                        <label className="field__label" htmlFor={`${id}-at`}>
                          Date and time ({timeZoneLabel(zone)})
                        </label>
                        <input
                          id={`${id}-at`}
                          className="field__input"
                          type="datetime-local"
                          step={1}
                          min={dateTimeFieldValue(Date.now(), zone)}
                          value={atShown}
                          aria-invalid={errors.at ? true : undefined}
                          aria-describedby={errors.at ? `${id}-at-error` : undefined}
                          onChange={(event) => setAt(event.target.value)}
                        />
                        {errors.at ? (
                          <p className="field__error" id={`${id}-at-error`}>
                            {errors.at}
                          </p>
                        ) : null}
                      </div>
                    ) : (
                      <p className="field__hint">
                        Each pin takes the next free time of the profile's schedule; pins with the same link go to a board at least 48 hours apart.
                      </p>
                    )}
                  </fieldset>

                  {spreading && oneBoard.days > 0 ? (
                    <MoreBoards
                      pinterest={pinterest}
                      username={username}
                      board={board}
                      chosen={moreBoards}
                      onChange={setMoreBoards}
                      sameLink={oneBoard.pins}
                      daysOnOne={oneBoard.days}
                      daysNow={withMore.days}
                    />
                  ) : null}

                  <label className="check">
                    <input type="checkbox" checked={allowDuplicate} onChange={(event) => setAllowDuplicate(event.target.checked)} />
                    Post even if the same link goes to this board within 48 hours
                  </label>

                  <fieldset className="schedule-dialog__repeat">
                    <legend className="visually-hidden">Repeat</legend>
                    <label className="check">
                      <input type="checkbox" checked={repeat} aria-controls={`${id}-repeat-days`} onChange={(event) => setRepeat(event.target.checked)} />
                      Repeat every {repeatDays.trim() || "N"} days
                    </label>
                    <div className={errors.repeat ? "field field--invalid schedule-dialog__repeat-days" : "field schedule-dialog__repeat-days"}>
                      <label className="field__label" htmlFor={`${id}-repeat-days`}>
                        Days between repeats
                      </label>
                      <input
                        id={`${id}-repeat-days`}
                        className="field__input"
                        type="number"
                        inputMode="numeric"
                        min={REPEAT_INTERVAL_DAYS.min}
                        max={REPEAT_INTERVAL_DAYS.max}
                        step={1}
                        value={repeatDays}
                        disabled={!repeat}
                        aria-invalid={errors.repeat ? true : undefined}
                        aria-describedby={errors.repeat ? `${id}-repeat-error` : `${id}-repeat-hint`}
                        onChange={(event) => setRepeatDays(event.target.value)}
                      />
                      {errors.repeat ? (
                        <p className="field__error" id={`${id}-repeat-error`}>
                          {errors.repeat}
                        </p>
                      ) : (
                        <p className="field__hint" id={`${id}-repeat-hint`}>
                          {REPEAT_INTERVAL_DAYS.min}-{REPEAT_INTERVAL_DAYS.max} days. Each pin is posted again every so many days until you delete its repeating
                          pin on the Scheduling page.
                        </p>
                      )}
                    </div>
                  </fieldset>
                </>
              ) : null}

              <DialogActions>
                <button type="submit" className="button button--primary" disabled={!settings}>
                  Schedule {pins}
                </button>
              </DialogActions>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const daysText = (days: number) => (days === 0 ? "all within a day" : `the last about ${days} ${days === 1 ? "day" : "days"} from the first`);

/**
 * The offer to spread pins of one link over more boards (issue 40 point 1): with the days it takes on the chosen
 * board alone and with the boards ticked here. The profile's boards come from the read the board field made.
 */
function MoreBoards({
  pinterest,
  username,
  board,
  chosen,
  onChange,
  sameLink,
  daysOnOne,
  daysNow,
}: {
  pinterest: Pinterest;
  username: string;
  board: BoardChoice;
  chosen: BoardChoice[];
  onChange(boards: BoardChoice[]): void;
  sameLink: number;
  daysOnOne: number;
  daysNow: number;
}) {
  const boardsQuery = useApiQuery(schedulingKeys.boards(username), () => pinterest.boards(username), { refetchOnWindowFocus: false });
  const others = (boardsQuery.data ?? []).filter((other) => other.id !== board.boardId);
  const ticked = new Set(chosen.map((more) => more.boardId));
  return (
    <fieldset className="schedule-dialog__spread notice notice--info">
      <legend className="field__label">Post them sooner</legend>
      <p>
        {sameLink} of these pins share one post's link: on {board.boardName || "one board"} they post 48 hours apart, {daysText(daysOnOne)}.
        {chosen.length > 0 ? ` Spread over ${chosen.length + 1} boards: ${daysText(daysNow)}.` : " Spread them over more boards to post them sooner:"}
      </p>
      {others.length === 0 ? (
        <p className="muted small">{boardsQuery.isPending ? "Reading the profile's boards…" : "This profile has no other board."}</p>
      ) : (
        <ul className="schedule-dialog__boards">
          {others.map((other) => (
            <li key={other.id}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={ticked.has(other.id)}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [...chosen, { boardId: other.id, boardName: other.name, sectionId: null }]
                        : chosen.filter((more) => more.boardId !== other.id),
                    )
                  }
                />
                Also post to {other.name}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
