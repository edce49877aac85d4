import { Form, useNavigation } from "@remix-run/react";
import { BACKUP_DEFAULT_PINS, BACKUP_MAX_PINS, type BackupPin } from "../../../contracts/content/backup-generator.ts";
import { timeZoneLabel } from "../../lib/pinterest/times.ts";
import { SignInPage } from "../shell/login-prompt.tsx";
import { Spinner } from "../spinner.tsx";
import type { BackupAnswer, BackupLoaded, BoardGroup } from "./backup-generator.server.ts";

type SignedIn = Extract<BackupLoaded, { signedIn: true }>;
type Answer = Exclude<BackupAnswer, { redirectTo: string }>;

const DEFAULT_COLOURS = ["#51c3a6", "#f2a541", "#3d5a80"];

/**
 * /backupGenerator (decision 055): plain forms, posted to the server, that
 * work with JavaScript off. With JavaScript on, Remix sends them and the
 * page shows what is being done.
 */
export function BackupGeneratorPage({ loaded, answer }: { loaded: BackupLoaded; answer: Answer | undefined }) {
  if (!loaded.signedIn) return <SignInPage title="Basic pin generator" action="generate pins" />;
  return <Generator loaded={loaded} answer={answer} />;
}

function Generator({ loaded, answer }: { loaded: SignedIn; answer: Answer | undefined }) {
  const navigation = useNavigation();
  const generating = navigation.state !== "idle" && navigation.formData?.get("intent") === "generate";
  const generateAnswer = answer?.intent === "generate" ? answer : null;
  const values = generateAnswer?.values;
  const fieldError = (field: string) => (generateAnswer?.field === field ? generateAnswer.error : null);
  const formError =
    generateAnswer && !["url", "templateSet", "color1", "color2", "color3", "count"].includes(generateAnswer.field ?? "") ? generateAnswer.error : null;
  return (
    <main className="page backup-generator">
      <header className="backup-generator__header">
        <h1>Basic pin generator</h1>
        <p className="muted">
          A simpler generator for browsers that cannot show the live previews of the <a href="/generate">generator</a>: your pins are drawn on our server.
          Credits are used as on the generator: one for each pin you download or schedule.
        </p>
        <p className="backup-generator__credits">
          Credits left this month: <strong>{loaded.creditsLeft}</strong>
        </p>
      </header>

      <section className="card" aria-labelledby="backup-generate-title">
        <h2 id="backup-generate-title">Make pins from a page</h2>
        <Form method="post" action="/backupGenerator" className="backup-generator__form">
          <input type="hidden" name="intent" value="generate" />
          <Field id="backup-url" label="Blog post or page address" error={fieldError("url")}>
            <input
              id="backup-url"
              className="field__input"
              name="url"
              type="url"
              inputMode="url"
              required
              placeholder="https://yourblog.com/a-post"
              defaultValue={values?.url ?? ""}
              aria-invalid={fieldError("url") ? true : undefined}
              aria-describedby={fieldError("url") ? "backup-url-error" : undefined}
            />
          </Field>
          <Field id="backup-template-set" label="Template set" error={fieldError("templateSet")}>
            <select id="backup-template-set" className="field__input field__select" name="templateSet" defaultValue={values?.templateSet ?? "all"}>
              {loaded.templateSets.map((set) => (
                <option key={set.value} value={set.value}>
                  {set.label}
                </option>
              ))}
            </select>
          </Field>
          <fieldset className="backup-generator__colours">
            <legend className="field__label">Colours</legend>
            {DEFAULT_COLOURS.map((colour, index) => (
              <label key={colour} className="backup-generator__colour" htmlFor={`backup-color${index + 1}`}>
                <input id={`backup-color${index + 1}`} type="color" name={`color${index + 1}`} defaultValue={values?.[`color${index + 1}`] || colour} />
                Colour {index + 1}
              </label>
            ))}
            {["color1", "color2", "color3"].map((field) =>
              fieldError(field) ? (
                <p key={field} className="field__error" role="alert">
                  {fieldError(field)}
                </p>
              ) : null,
            )}
          </fieldset>
          <Field id="backup-count" label="Number of pins" error={fieldError("count")}>
            <select id="backup-count" className="field__input field__select" name="count" defaultValue={values?.count || String(BACKUP_DEFAULT_PINS)}>
              {Array.from({ length: BACKUP_MAX_PINS }, (_, i) => (
                <option key={i + 1} value={String(i + 1)}>
                  {i + 1}
                </option>
              ))}
            </select>
          </Field>
          {formError ? (
            <p className="notice notice--error" role="alert">
              {formError}
            </p>
          ) : null}
          <button type="submit" className="button button--primary" disabled={generating}>
            {generating ? <Spinner label="Generating pins" /> : null} {generating ? "Generating pins…" : "Generate pins"}
          </button>
          <p className="field__hint">Reading the page and drawing the pins takes a few seconds.</p>
        </Form>
      </section>

      {loaded.batchProblem ? (
        <p className="notice notice--error" role="alert">
          {loaded.batchProblem}
        </p>
      ) : null}

      {loaded.batch ? (
        <section aria-labelledby="backup-pins-title" className="backup-generator__results">
          <h2 id="backup-pins-title">Your pins</h2>
          <p className="muted">
            From <a href={loaded.batch.sourceUrl}>{loaded.batch.sourceUrl}</a>
          </p>
          {loaded.batch.pins.length === 0 ? <p>No pins could be made from this page. Try another address.</p> : null}
          <ol className="backup-generator__pins">
            {loaded.batch.pins.map((pin) => (
              <PinCard
                key={pin.index}
                batchId={loaded.batch!.id}
                pin={pin}
                reference={loaded.references[pin.index]}
                boards={loaded.boards}
                answer={answer && answer.intent !== "generate" && answer.pin === pin.index ? answer : null}
              />
            ))}
          </ol>
        </section>
      ) : null}
    </main>
  );
}

function Field({ id, label, error, children }: { id: string; label: string; error: string | null; children: React.ReactNode }) {
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PinCard({
  batchId,
  pin,
  reference,
  boards,
  answer,
}: {
  batchId: string;
  pin: BackupPin;
  reference: { download: string; schedule: string };
  boards: BoardGroup[];
  answer: Extract<Answer, { intent: "download" | "schedule" }> | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("pin") === String(pin.index) ? navigation.formData.get("intent") : null;
  const action = `/backupGenerator?batch=${batchId}`;
  const name = pin.title || `Pin ${pin.index + 1}`;
  const boardId = `backup-board-${pin.index}`;
  const whenId = `backup-when-${pin.index}`;
  const zones = [...new Set(boards.map((group) => group.timeZone))];
  return (
    <li className="card backup-pin" aria-label={`Pin ${pin.index + 1}: ${name}`}>
      <img className="backup-pin__image" src={pin.previewUrl} alt={`Pin ${pin.index + 1}: ${name}`} width={400} height={600} />
      <div className="backup-pin__body">
        <h3 className="backup-pin__title">{name}</h3>
        {pin.templateTitle ? <p className="muted">Template: {pin.templateTitle}</p> : null}

        <Form method="post" action={action} className="backup-pin__form">
          <input type="hidden" name="intent" value="download" />
          <input type="hidden" name="batch" value={batchId} />
          <input type="hidden" name="pin" value={pin.index} />
          <input type="hidden" name="reference" value={reference.download} />
          <button type="submit" className="button button--primary" disabled={busy === "download"}>
            {busy === "download" ? <Spinner label="Downloading" /> : null} Download (1 credit)
          </button>
        </Form>
        {answer?.intent === "download" ? (
          answer.error === null ? (
            <p className="notice notice--success" role="status">
              {answer.creditsCharged > 0 ? "Your pin is ready: 1 credit used." : "Your pin is ready (already paid for: no credit used)."}{" "}
              <a href={answer.imageUrl} download={answer.fileName}>
                Save the image
              </a>
            </p>
          ) : (
            <p className="notice notice--error" role="alert">
              {answer.error}
            </p>
          )
        ) : null}

        {boards.length === 0 ? (
          <p className="field__hint">
            To schedule this pin, connect a Pinterest profile on the <a href="/scheduling">scheduling page</a>.
          </p>
        ) : (
          <Form method="post" action={action} className="backup-pin__form backup-pin__schedule">
            <input type="hidden" name="intent" value="schedule" />
            <input type="hidden" name="batch" value={batchId} />
            <input type="hidden" name="pin" value={pin.index} />
            <input type="hidden" name="reference" value={reference.schedule} />
            <div className="field">
              <label className="field__label" htmlFor={boardId}>
                Board
              </label>
              <select id={boardId} className="field__input field__select" name="board" required defaultValue="">
                <option value="" disabled>
                  Choose a board
                </option>
                {boards.map((group) => (
                  <optgroup key={group.username} label={group.problem ? `${group.username}: ${group.problem}` : group.username}>
                    {group.boards.map((board) => (
                      <option key={board.value} value={board.value}>
                        {board.name}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="field__label" htmlFor={whenId}>
                Time (optional)
              </label>
              <input id={whenId} className="field__input" type="datetime-local" name="when" aria-describedby={`${whenId}-hint`} />
              <p className="field__hint" id={`${whenId}-hint`}>
                {`In the profile's time zone (${zones.map(timeZoneLabel).join(", ")}). Leave it empty for the next free time in the queue.`}
              </p>
            </div>
            <button type="submit" className="button button--primary" disabled={busy === "schedule"}>
              {busy === "schedule" ? <Spinner label="Scheduling" /> : null} Schedule (1 credit)
            </button>
          </Form>
        )}
        {answer?.intent === "schedule" ? (
          answer.error === null ? (
            <p className="notice notice--success" role="status">
              {`Scheduled to ${answer.board} for ${answer.when}. ${answer.creditsCharged > 0 ? "1 credit used." : "It was already scheduled: no credit used."}`}
            </p>
          ) : (
            <p className="notice notice--error" role="alert">
              {answer.error}
            </p>
          )
        ) : null}
      </div>
    </li>
  );
}
