import {
  IMAGE_SOURCES,
  SHAPES,
  TEXT_CONTENTS,
  type ImageLayer,
  type Layer,
  type SvgLayer,
  type TextLayer,
  type TextStyle,
  type VideoLayer,
} from "../../../contracts/content/template.ts";
import { BUNDLED_FONTS } from "../../../workers/render/font-catalog.ts";
import type { LayerChanges } from "../../lib/template-editor-state.ts";
import { CheckboxField, ChoiceField, ColorField, FillField, NumberField, PropSection, TextInputField } from "./fields.tsx";

type UpdateLayer = (changes: LayerChanges, mergeKey?: string) => void;

const TYPE_NAMES: Record<Layer["type"], string> = { text: "Text", Image: "Image", Video: "Video area", SVG: "Shape" };

/** The selected layer's properties: position, size, rotation and opacity, then what its type adds. */
export function LayerProperties({ layer, onChange }: { layer: Layer; onChange: UpdateLayer }) {
  const key = (name: string) => `${layer.id}:${name}`;
  const number = (name: keyof Layer & string) => (value: number | undefined, mergeKey: string) => value !== undefined && onChange({ [name]: value }, mergeKey);
  return (
    <div className="layer-properties" aria-label={`Properties of ${layer.name}`} role="group">
      <PropSection title={`${TYPE_NAMES[layer.type]}: ${layer.name}`}>
        <TextInputField label="Layer name" value={layer.name} maxLength={80} field={key("name")} onChange={(name, mergeKey) => onChange({ name }, mergeKey)} />
        <NumberField label="X" value={layer.x} min={-2000} max={4000} field={key("x")} onChange={number("x")} />
        <NumberField label="Y" value={layer.y} min={-2000} max={4000} field={key("y")} onChange={number("y")} />
        <NumberField label="Width" value={layer.width} min={1} max={4000} field={key("width")} onChange={number("width")} />
        <NumberField label="Height" value={layer.height} min={1} max={4000} field={key("height")} onChange={number("height")} />
        <NumberField label="Rotation (°)" value={layer.rotation ?? 0} min={-360} max={360} field={key("rotation")} onChange={number("rotation")} />
        <NumberField
          label="Opacity (%)"
          value={Math.round((layer.opacity ?? 1) * 100)}
          min={0}
          max={100}
          field={key("opacity")}
          onChange={(value, mergeKey) => value !== undefined && onChange({ opacity: value / 100 }, mergeKey)}
        />
      </PropSection>
      {layer.type === "text" ? <TextProperties layer={layer} onChange={onChange} /> : null}
      {layer.type === "Image" || layer.type === "Video" ? <PictureProperties layer={layer} onChange={onChange} /> : null}
      {layer.type === "SVG" ? <ShapeProperties layer={layer} onChange={onChange} /> : null}
    </div>
  );
}

const CONTENT_LABELS: Record<(typeof TEXT_CONTENTS)[number], string> = {
  title: "Post title",
  description: "Description",
  urlText: "Website (URL text)",
  brandName: "Brand name",
  price: "Price",
  listItem: "List item",
  quote: "Quote",
  custom: "Custom text",
};

const WEIGHTS = [
  { value: 400, label: "Regular" },
  { value: 700, label: "Bold" },
] as const;
const ALIGNS = [
  { value: "left", label: "Left" },
  { value: "center", label: "Centre" },
  { value: "right", label: "Right" },
] as const;
const VERTICAL_ALIGNS = [
  { value: "top", label: "Top" },
  { value: "middle", label: "Middle" },
  { value: "bottom", label: "Bottom" },
] as const;
const UPPERCASE_CHOICES = [
  { value: "design", label: "Design setting" },
  { value: "on", label: "On" },
  { value: "off", label: "Off" },
] as const;

const FONT_OPTIONS = [{ value: "design", label: "Design setting font" }, ...BUNDLED_FONTS.map((font) => ({ value: font.family, label: font.family }))];

function TextProperties({ layer, onChange }: { layer: TextLayer; onChange: UpdateLayer }) {
  const style = layer.style ?? {};
  const key = (name: string) => `${layer.id}:style.${name}`;
  const setStyle = (changes: Partial<TextStyle>, mergeKey?: string) => onChange({ style: { ...style, ...changes } }, mergeKey);
  const fontSize = style.fontSize ?? "auto";
  const background = style.background;
  const fontFamily = style.fontFamily ?? "design";
  const fonts = FONT_OPTIONS.some((option) => option.value === fontFamily) ? FONT_OPTIONS : [...FONT_OPTIONS, { value: fontFamily, label: fontFamily }];
  return (
    <>
      <PropSection title="Text">
        <ChoiceField
          wide
          label="Content"
          value={layer.content}
          options={TEXT_CONTENTS.map((content) => ({ value: content, label: CONTENT_LABELS[content] }))}
          onChange={(content) => onChange({ content })}
        />
        <TextInputField
          multiline
          label={layer.content === "custom" ? "Text" : "Text before the content"}
          placeholder={layer.content === "custom" ? "" : "e.g. Read more at "}
          value={layer.text ?? ""}
          maxLength={500}
          field={`${layer.id}:text`}
          onChange={(text, mergeKey) => onChange({ text }, mergeKey)}
        />
        {layer.content === "listItem" ? (
          <NumberField
            label="List item number"
            value={(layer.item ?? 0) + 1}
            min={1}
            max={30}
            field={`${layer.id}:item`}
            onChange={(item, mergeKey) => item !== undefined && onChange({ item: Math.max(0, Math.round(item) - 1) }, mergeKey)}
          />
        ) : null}
        <NumberField
          label="Max lines"
          optional
          value={layer.maxLines}
          min={1}
          max={30}
          field={`${layer.id}:maxLines`}
          onChange={(maxLines, mergeKey) => onChange({ maxLines: maxLines === undefined ? undefined : Math.round(maxLines) }, mergeKey)}
        />
      </PropSection>
      <PropSection title="Font">
        <ChoiceField wide label="Font family" value={fontFamily} options={fonts} onChange={(family) => setStyle({ fontFamily: family })} />
        <CheckboxField
          label="Fit the text to the box (auto size)"
          checked={fontSize === "auto"}
          onChange={(auto) => setStyle({ fontSize: auto ? "auto" : 64 })}
        />
        <NumberField
          label="Font size (px)"
          value={fontSize === "auto" ? undefined : fontSize}
          disabled={fontSize === "auto"}
          min={5}
          max={600}
          field={key("fontSize")}
          onChange={(size, mergeKey) => size !== undefined && setStyle({ fontSize: size }, mergeKey)}
        />
        <ChoiceField label="Weight" value={style.fontWeight ?? 700} options={WEIGHTS} onChange={(fontWeight) => setStyle({ fontWeight })} />
        <ColorField
          label="Text colour"
          allowAuto
          value={style.color ?? "auto"}
          field={key("color")}
          onChange={(color, mergeKey) => setStyle({ color }, mergeKey)}
        />
        <ChoiceField label="Align" value={style.align ?? "center"} options={ALIGNS} onChange={(align) => setStyle({ align })} />
        <ChoiceField
          label="Vertical align"
          value={style.verticalAlign ?? "middle"}
          options={VERTICAL_ALIGNS}
          onChange={(verticalAlign) => setStyle({ verticalAlign })}
        />
        <ChoiceField
          label="Uppercase"
          value={style.uppercase === undefined || style.uppercase === "design" ? "design" : style.uppercase ? "on" : "off"}
          options={UPPERCASE_CHOICES}
          onChange={(choice) => setStyle({ uppercase: choice === "design" ? "design" : choice === "on" })}
        />
        <NumberField
          label="Line height"
          value={style.lineHeight ?? 1.15}
          min={0.7}
          max={3}
          step={0.05}
          field={key("lineHeight")}
          onChange={(lineHeight, mergeKey) => lineHeight !== undefined && setStyle({ lineHeight }, mergeKey)}
        />
        <NumberField
          label="Letter spacing (em)"
          value={style.letterSpacing ?? 0}
          min={-0.2}
          max={1}
          step={0.01}
          field={key("letterSpacing")}
          onChange={(letterSpacing, mergeKey) => letterSpacing !== undefined && setStyle({ letterSpacing }, mergeKey)}
        />
      </PropSection>
      <PropSection title="Background shape">
        <CheckboxField
          label="Shape behind the text"
          checked={background !== undefined}
          onChange={(on) => setStyle({ background: on ? { shape: "rect", fill: "pin", padding: 24, radius: 0 } : undefined })}
        />
        {background ? (
          <>
            <ChoiceField
              label="Shape"
              value={background.shape}
              options={[
                { value: "rect", label: "Rectangle" },
                { value: "pill", label: "Pill" },
              ]}
              onChange={(shape) => setStyle({ background: { ...background, shape } })}
            />
            <NumberField
              label="Padding"
              value={background.padding ?? 24}
              min={0}
              max={200}
              field={key("bg.padding")}
              onChange={(padding, mergeKey) => padding !== undefined && setStyle({ background: { ...background, padding } }, mergeKey)}
            />
            {background.shape === "rect" ? (
              <NumberField
                label="Corner radius"
                value={background.radius ?? 0}
                min={0}
                max={500}
                field={key("bg.radius")}
                onChange={(radius, mergeKey) => radius !== undefined && setStyle({ background: { ...background, radius } }, mergeKey)}
              />
            ) : null}
            <FillField
              label="Background fill"
              value={background.fill}
              field={key("bg.fill")}
              onChange={(fill, mergeKey) => setStyle({ background: { ...background, fill } }, mergeKey)}
            />
          </>
        ) : null}
      </PropSection>
    </>
  );
}

const SOURCE_LABELS: Record<(typeof IMAGE_SOURCES)[number], string> = {
  detected: "Detected image (from the post)",
  uploaded: "Uploaded image",
  logo: "Logo",
  url: "Picture from a URL",
};

function PictureProperties({ layer, onChange }: { layer: ImageLayer | VideoLayer; onChange: UpdateLayer }) {
  const source = layer.source ?? "detected";
  return (
    <PropSection title={layer.type === "Video" ? "Video area" : "Image"}>
      <ChoiceField
        wide
        label="Source"
        value={source}
        options={IMAGE_SOURCES.map((value) => ({ value, label: SOURCE_LABELS[value] }))}
        onChange={(next) => onChange({ source: next, useDetectedImages: next === "detected", useLogoImage: next === "logo", containsImage: true })}
      />
      {source === "detected" || source === "uploaded" ? (
        <NumberField
          label="Image number"
          value={(layer.imageIndex ?? 0) + 1}
          min={1}
          max={21}
          field={`${layer.id}:imageIndex`}
          onChange={(position, mergeKey) => position !== undefined && onChange({ imageIndex: Math.round(position) - 1 }, mergeKey)}
        />
      ) : null}
      {source === "url" ? (
        <TextInputField
          label="Picture URL"
          value={layer.src ?? ""}
          maxLength={2048}
          placeholder="https://…"
          field={`${layer.id}:src`}
          onChange={(src, mergeKey) => onChange({ src }, mergeKey)}
        />
      ) : null}
      <ChoiceField
        label="Fit"
        value={layer.fit ?? "cover"}
        options={[
          { value: "cover", label: "Cover (crop to fill)" },
          { value: "contain", label: "Contain (show all)" },
        ]}
        onChange={(fit) => onChange({ fit })}
      />
      <NumberField
        label="Corner radius"
        value={layer.borderRadius ?? 0}
        min={0}
        max={2000}
        field={`${layer.id}:borderRadius`}
        onChange={(radius, mergeKey) => radius !== undefined && onChange({ borderRadius: radius }, mergeKey)}
      />
    </PropSection>
  );
}

const SHAPE_LABELS: Record<(typeof SHAPES)[number], string> = {
  rect: "Rectangle",
  ellipse: "Ellipse",
  triangle: "Triangle",
  wave: "Wave",
  arch: "Arch",
  path: "Custom path",
};

function ShapeProperties({ layer, onChange }: { layer: SvgLayer; onChange: UpdateLayer }) {
  return (
    <PropSection title="Shape">
      <ChoiceField
        label="Shape"
        value={layer.shape}
        options={SHAPES.map((value) => ({ value, label: SHAPE_LABELS[value] }))}
        onChange={(shape) => onChange(shape === "path" && !layer.path ? { shape, path: "M0 0 L100 0 L100 100 Z" } : { shape })}
      />
      {layer.shape === "rect" ? (
        <NumberField
          label="Corner radius"
          value={layer.borderRadius ?? 0}
          min={0}
          max={2000}
          field={`${layer.id}:borderRadius`}
          onChange={(radius, mergeKey) => radius !== undefined && onChange({ borderRadius: radius }, mergeKey)}
        />
      ) : null}
      {layer.shape === "path" ? (
        <TextInputField
          multiline
          label="Path (SVG path data in a 100 × 100 box)"
          value={layer.path ?? ""}
          maxLength={4000}
          field={`${layer.id}:path`}
          onChange={(path, mergeKey) => onChange({ path }, mergeKey)}
        />
      ) : null}
      <FillField label="Fill" value={layer.fill} field={`${layer.id}:fill`} onChange={(fill, mergeKey) => onChange({ fill }, mergeKey)} />
      <NumberField
        label="Outline width"
        value={layer.strokeWidth ?? 0}
        min={0}
        max={100}
        field={`${layer.id}:strokeWidth`}
        onChange={(strokeWidth, mergeKey) =>
          strokeWidth !== undefined && onChange({ strokeWidth, ...(strokeWidth > 0 && !layer.stroke ? { stroke: "pin-dark" } : {}) }, mergeKey)
        }
      />
      {layer.strokeWidth ? (
        <ColorField
          label="Outline colour"
          value={layer.stroke ?? "pin-dark"}
          field={`${layer.id}:stroke`}
          onChange={(stroke, mergeKey) => onChange({ stroke }, mergeKey)}
        />
      ) : null}
    </PropSection>
  );
}
