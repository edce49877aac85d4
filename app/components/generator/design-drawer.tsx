import { useId, useState, type ReactNode } from "react";
import { AI_LANGUAGES, AI_TONES, MAX_PINS_PER_SOURCE, type DesignSettings, type PinOverrides } from "../../../contracts/content/design-settings.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { BUNDLED_FONTS } from "../../../workers/render/font-catalog.ts";
import { fetchPalettes, type MediaItem, type Palette } from "../../lib/generator/api.ts";
import { useApiQuery } from "../../lib/query.ts";
import { cssColor, hexOf, rgbaOf } from "./colors.ts";
import { DesignProfiles } from "./design-profiles.tsx";
import { generatorKeys } from "./generator-keys.ts";
import { MediaPicker } from "./media-picker.tsx";
import { TemplatesThatPerform } from "./templates-that-perform.tsx";
import { TemplatePicker } from "./template-picker.tsx";

type Change = (patch: Partial<DesignSettings>) => void;

/**
 * The design settings drawer (spec section 3, Design settings): every field,
 * labelled and usable from the keyboard, plus the profiles. Changes apply to
 * the next generation; "Apply to pins" changes the unlocked pins now.
 */
export function DesignDrawer({
  settings,
  onChange,
  detectedImages,
  standardTemplates,
  onApply,
  canApply,
}: {
  settings: DesignSettings;
  onChange: Change;
  detectedImages: string[];
  standardTemplates: () => Promise<Template[]>;
  onApply(): void;
  canApply: boolean;
}) {
  return (
    <div className="design-drawer">
      <h2 className="design-drawer__title">Design settings</h2>
      <DesignProfiles settings={settings} onLoaded={(next) => onChange(next)} />
      <ColorsSection settings={settings} onChange={onChange} />
      <TemplatesSection settings={settings} onChange={onChange} standardTemplates={standardTemplates} />
      <ImagesSection settings={settings} onChange={onChange} detectedImages={detectedImages} />
      <TextSection settings={settings} onChange={onChange} />
      <AiSection settings={settings} onChange={onChange} />
      <OverridesSection settings={settings} onChange={onChange} />
      <div className="design-drawer__apply">
        <button type="button" className="button button--primary button--block" onClick={onApply} disabled={!canApply}>
          Apply to unlocked pins
        </button>
        <p className="field__hint">Font, colour and overrides change on every pin that is not locked.</p>
      </div>
    </div>
  );
}

function Section({ title, children, open = true }: { title: string; children: ReactNode; open?: boolean }) {
  return (
    <details className="drawer-section" open={open}>
      <summary className="drawer-section__title">{title}</summary>
      <div className="drawer-section__body">{children}</div>
    </details>
  );
}

function Check({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange(checked: boolean): void; hint?: string }) {
  const id = useId();
  return (
    <div className="check-field">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function TextField({
  label,
  value,
  onChange,
  max,
  multiline = false,
  placeholder,
  hint,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  max: number;
  multiline?: boolean;
  placeholder?: string;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          className="field__input"
          rows={4}
          value={value}
          maxLength={max}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
      ) : (
        <input
          id={id}
          className="field__input"
          value={value}
          maxLength={max}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field__input" value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function ColorsSection({ settings, onChange }: { settings: DesignSettings; onChange: Change }) {
  const id = useId();
  const palettesRead = useApiQuery<Palette[]>(generatorKeys.palettes, () => fetchPalettes());
  const palettes = palettesRead.data ?? null;
  const paletteError = !palettes && palettesRead.isError;
  const [newColor, setNewColor] = useState("#51c3a6");
  const colors = settings.designColors;

  const setColors = (designColors: DesignSettings["designColors"], selectedColorIndex = settings.selectedColorIndex) =>
    onChange({ designColors, selectedColorIndex: Math.min(selectedColorIndex, designColors.length - 1) });

  return (
    <Section title="Colours">
      <fieldset className="field">
        <legend className="field__label">Pin colours (the chosen one is used unless all colours are)</legend>
        <ul className="color-list">
          {colors.map((color, index) => (
            <li key={index} className="color-list__item">
              <label className="swatch swatch--large" style={{ background: cssColor(color) }}>
                <input
                  type="radio"
                  name={`${id}-selected`}
                  className="visually-hidden"
                  checked={settings.selectedColorIndex === index}
                  onChange={() => onChange({ selectedColorIndex: index })}
                />
                <span className="visually-hidden">Use colour {index + 1}</span>
              </label>
              <input
                type="color"
                className="color-list__input"
                aria-label={`Colour ${index + 1}`}
                value={hexOf(color)}
                onChange={(event) => setColors(colors.map((other, i) => (i === index ? rgbaOf(event.target.value) : other)))}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove colour ${index + 1}`}
                disabled={colors.length <= 1}
                onClick={() =>
                  setColors(
                    colors.filter((_, i) => i !== index),
                    settings.selectedColorIndex > index ? settings.selectedColorIndex - 1 : settings.selectedColorIndex,
                  )
                }
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
        <div className="color-add">
          <input type="color" aria-label="New colour" value={newColor} onChange={(event) => setNewColor(event.target.value)} />
          <button type="button" className="chip-button" disabled={colors.length >= 24} onClick={() => setColors([...colors, rgbaOf(newColor)])}>
            Add colour
          </button>
        </div>
      </fieldset>
      <Check
        label="Use all colours"
        checked={settings.useAllColors}
        onChange={(useAllColors) => onChange({ useAllColors })}
        hint="Pins take the colours in turn."
      />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-palette`}>
          Palette
        </label>
        <select
          id={`${id}-palette`}
          className="field__input"
          value=""
          disabled={!palettes || palettes.length === 0}
          onChange={(event) => {
            const palette = palettes?.find((candidate) => candidate.id === event.target.value);
            if (palette && palette.colors.length > 0)
              setColors(
                palette.colors.slice(0, 24).map((c) => ({ r: c.r, g: c.g, b: c.b, a: c.a ?? 1 })),
                0,
              );
          }}
        >
          <option value="">{paletteError ? "Palettes are unavailable" : palettes ? "Use a palette…" : "Loading palettes…"}</option>
          {(palettes ?? []).map((palette) => (
            <option key={palette.id} value={palette.id}>
              {palette.name}
            </option>
          ))}
        </select>
      </div>
    </Section>
  );
}

function PinsPerSource({ settings, onChange }: { settings: DesignSettings; onChange: Change }) {
  const id = useId();
  const decidedElsewhere = settings.useOneOfEachTemplate || settings.useOneOfEachImage;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Pins per post
      </label>
      <input
        id={id}
        className="field__input field__input--number"
        type="number"
        min={1}
        max={MAX_PINS_PER_SOURCE}
        value={settings.pinsPerSource}
        disabled={decidedElsewhere}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const value = Math.round(Number(event.target.value));
          if (Number.isFinite(value)) onChange({ pinsPerSource: Math.min(MAX_PINS_PER_SOURCE, Math.max(1, value)) });
        }}
      />
      <p id={`${id}-hint`} className="field__hint">
        {decidedElsewhere ? '"One of each" decides how many pins each post gets.' : "Each with another template, 1 to 20."}
      </p>
    </div>
  );
}

function TemplatesSection({
  settings,
  onChange,
  standardTemplates,
}: {
  settings: DesignSettings;
  onChange: Change;
  standardTemplates: () => Promise<Template[]>;
}) {
  const [picking, setPicking] = useState(false);
  const count = settings.templateSelections.length;
  return (
    <Section title="Templates">
      <p className="field__hint" id="template-selection-summary">
        {count === 0 ? "All standard templates" : `${count} ${count === 1 ? "template" : "templates"} chosen`}
      </p>
      <button type="button" className="button button--ghost" onClick={() => setPicking(true)} aria-describedby="template-selection-summary">
        Choose templates
      </button>
      <PinsPerSource settings={settings} onChange={onChange} />
      <Check
        label="Random templates"
        checked={settings.isRandomTemplates}
        onChange={(isRandomTemplates) => onChange({ isRandomTemplates })}
        hint="Otherwise pins take the templates in turn."
      />
      {settings.isRandomTemplates ? <TemplatesThatPerform /> : null}
      <Check
        label="One of each template"
        checked={settings.useOneOfEachTemplate}
        onChange={(useOneOfEachTemplate) => onChange({ useOneOfEachTemplate })}
        hint="Every post gets a pin in each chosen template."
      />
      <TemplatePicker
        open={picking}
        selected={settings.templateSelections}
        standardTemplates={standardTemplates}
        onClose={() => setPicking(false)}
        onChange={(templateSelections) => onChange({ templateSelections })}
      />
    </Section>
  );
}

function ImagesSection({ settings, onChange, detectedImages }: { settings: DesignSettings; onChange: Change; detectedImages: string[] }) {
  const [picking, setPicking] = useState(false);
  const chosenDetected = new Set(settings.selectedDetectedImages);
  return (
    <Section title="Images">
      <Check
        label="Use all detected images"
        checked={settings.useAllDetectedImages}
        onChange={(useAllDetectedImages) => onChange({ useAllDetectedImages })}
        hint="Otherwise only the images you choose below."
      />
      {!settings.useAllDetectedImages ? (
        <fieldset className="field">
          <legend className="field__label">Detected images to use</legend>
          {detectedImages.length === 0 ? (
            <p className="field__hint">Generate from a page first: its images show here.</p>
          ) : (
            <ul className="image-choices">
              {detectedImages.map((image, index) => (
                <li key={image}>
                  <label className="image-choice">
                    <input
                      type="checkbox"
                      className="visually-hidden"
                      checked={chosenDetected.has(image)}
                      onChange={(event) =>
                        onChange({
                          selectedDetectedImages: event.target.checked
                            ? [...settings.selectedDetectedImages, image]
                            : settings.selectedDetectedImages.filter((other) => other !== image),
                        })
                      }
                    />
                    {/* biome-ignore lint/a11y/noRedundantAlt: the number tells several pictures apart ("Picture 2"): the word is part of that name, not a description of the element. */}
                    <img src={image} alt={`Detected image ${index + 1}`} loading="lazy" />
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      ) : null}
      <div className="field">
        <span className="field__label" id="uploaded-images-label">
          Uploaded images
        </span>
        {settings.selectedUploadedImages.length > 0 ? (
          <ul className="image-choices" aria-labelledby="uploaded-images-label">
            {settings.selectedUploadedImages.map((image, index) => (
              <li key={image} className="image-choice image-choice--static">
                {/* biome-ignore lint/a11y/noRedundantAlt: the number tells several pictures apart ("Picture 2"): the word is part of that name, not a description of the element. */}
                <img src={image} alt={`Uploaded image ${index + 1}`} loading="lazy" />
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Stop using uploaded image ${index + 1}`}
                  onClick={() => onChange({ selectedUploadedImages: settings.selectedUploadedImages.filter((other) => other !== image) })}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="field__hint">None: pins use the detected images.</p>
        )}
        <button type="button" className="button button--ghost" onClick={() => setPicking(true)}>
          Choose uploaded images
        </button>
      </div>
      <Check
        label="Random images"
        checked={settings.isRandomImages}
        onChange={(isRandomImages) => onChange({ isRandomImages })}
        hint="Shuffle which picture goes where."
      />
      <Check
        label="One of each image"
        checked={settings.useOneOfEachImage}
        onChange={(useOneOfEachImage) => onChange({ useOneOfEachImage })}
        hint="A pin for every picture of a post."
      />
      <Check
        label="Bypass resize"
        checked={settings.bypassResize}
        onChange={(bypassResize) => onChange({ bypassResize })}
        hint="Draw pictures at their own size in the download."
      />
      <MediaPicker
        open={picking}
        mediaType="image"
        title="Your images"
        multiple
        chosen={settings.selectedUploadedImages}
        onClose={() => setPicking(false)}
        onChoose={(items: MediaItem[]) => {
          onChange({ selectedUploadedImages: items.map((item) => item.url).slice(0, 40) });
          setPicking(false);
        }}
      />
    </Section>
  );
}

function TextSection({ settings, onChange }: { settings: DesignSettings; onChange: Change }) {
  const id = useId();
  const [picking, setPicking] = useState(false);
  const uploaded = settings.fontUrl !== "";
  return (
    <Section title="Text and font">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-font`}>
          Font
        </label>
        <select
          id={`${id}-font`}
          className="field__input"
          value={uploaded ? "__uploaded" : settings.fontFamily}
          onChange={(event) => {
            if (event.target.value === "__choose") setPicking(true);
            else if (event.target.value !== "__uploaded") onChange({ fontFamily: event.target.value, fontUrl: "" });
          }}
        >
          {uploaded ? <option value="__uploaded">{settings.fontFamily} (uploaded)</option> : null}
          {BUNDLED_FONTS.map((font) => (
            <option key={font.family} value={font.family}>
              {font.family}
            </option>
          ))}
          <option value="__choose">Uploaded font…</option>
        </select>
      </div>
      <div className="field">
        <span className="field__label" id={`${id}-font-color-label`}>
          Font colour
        </span>
        <div className="font-color">
          <Check label="Template's own text colours" checked={settings.fontColor === ""} onChange={(own) => onChange({ fontColor: own ? "" : "#1d2226" })} />
          {settings.fontColor ? (
            <input
              type="color"
              aria-labelledby={`${id}-font-color-label`}
              value={settings.fontColor.length === 4 ? `#${[...settings.fontColor.slice(1)].map((c) => c + c).join("")}` : settings.fontColor}
              onChange={(event) => onChange({ fontColor: event.target.value })}
            />
          ) : null}
        </div>
      </div>
      <Check label="Uppercase" checked={settings.useUpperCaseFont} onChange={(useUpperCaseFont) => onChange({ useUpperCaseFont })} />
      <Check
        label="Fix low-contrast text"
        checked={settings.fixLowContrastText}
        onChange={(fixLowContrastText) => onChange({ fixLowContrastText })}
        hint="Text that would be hard to read turns black or white."
      />
      <MediaPicker
        open={picking}
        mediaType="font"
        title="Your fonts"
        multiple={false}
        chosen={settings.fontUrl ? [settings.fontUrl] : []}
        onClose={() => setPicking(false)}
        onChoose={(items) => {
          const font = items[0];
          if (font) onChange({ fontFamily: (font.fontFamily || font.fileName || "Uploaded font").slice(0, 80), fontUrl: font.url });
          setPicking(false);
        }}
      />
    </Section>
  );
}

function AiSection({ settings, onChange }: { settings: DesignSettings; onChange: Change }) {
  return (
    <Section title="AI copy" open={false}>
      <Check
        label="Rewrite titles with AI"
        checked={settings.rewriteTitle}
        onChange={(rewriteTitle) => onChange({ rewriteTitle })}
        hint="Under 40 characters (AI text credits)."
      />
      <Check
        label="Rewrite descriptions with AI"
        checked={settings.rewriteDescription}
        onChange={(rewriteDescription) => onChange({ rewriteDescription })}
        hint="Between 200 and 500 characters."
      />
      <Check
        label="Write alt text with AI"
        checked={settings.generateAltTextWithAI}
        onChange={(generateAltTextWithAI) => onChange({ generateAltTextWithAI })}
        hint="Describes each pin's main picture (AI alt text credits)."
      />
      <SelectField
        label="AI language"
        value={settings.aiLanguage}
        options={AI_LANGUAGES.map((value) => ({ value, label: value }))}
        onChange={(aiLanguage) => onChange({ aiLanguage })}
      />
      <SelectField
        label="Tone"
        value={settings.aiTone}
        options={AI_TONES.map((value) => ({ value, label: value }))}
        onChange={(aiTone) => onChange({ aiTone })}
      />
      <TextField
        label="Keywords"
        value={settings.aiKeywords}
        onChange={(aiKeywords) => onChange({ aiKeywords })}
        max={2000}
        multiline
        placeholder={"one keyword phrase per line"}
        hint="One phrase per line; leave empty for a free rewrite."
      />
    </Section>
  );
}

function OverridesSection({ settings, onChange }: { settings: DesignSettings; onChange: Change }) {
  const [picking, setPicking] = useState(false);
  const overrides = settings.pinOverrides;
  const set = (patch: Partial<PinOverrides>) => onChange({ pinOverrides: { ...overrides, ...patch } });
  return (
    <Section title="Pin overrides" open={false}>
      <p className="field__hint">Filled fields replace what the source says, on every pin.</p>
      <TextField label="Title" value={overrides.title} onChange={(title) => set({ title })} max={500} />
      <TextField label="URL text" value={overrides.URLText} onChange={(URLText) => set({ URLText })} max={200} />
      <TextField label="Description" value={overrides.description} onChange={(description) => set({ description })} max={2000} multiline />
      <TextField label="URL" value={overrides.url} onChange={(url) => set({ url })} max={2048} />
      <TextField label="Brand name" value={overrides.brandName} onChange={(brandName) => set({ brandName })} max={100} />
      <div className="field">
        <span className="field__label">Logo image</span>
        {overrides.logoImage ? <img className="logo-preview" src={overrides.logoImage} alt="Logo" /> : <p className="field__hint">No logo.</p>}
        <div className="design-profiles__actions">
          <button type="button" className="chip-button" onClick={() => setPicking(true)}>
            Choose logo
          </button>
          {overrides.logoImage ? (
            <button type="button" className="chip-button" onClick={() => set({ logoImage: "" })}>
              Remove logo
            </button>
          ) : null}
        </div>
      </div>
      <MediaPicker
        open={picking}
        mediaType="image"
        title="Your logo"
        multiple={false}
        chosen={overrides.logoImage ? [overrides.logoImage] : []}
        onClose={() => setPicking(false)}
        onChoose={(items) => {
          set({ logoImage: items[0]?.url ?? "" });
          setPicking(false);
        }}
      />
    </Section>
  );
}
