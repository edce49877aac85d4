import type { Layer } from "../../../contracts/content/template.ts";
import type { LayerOrderMove } from "../../lib/template-editor-state.ts";
import { Icon, type IconName } from "./icons.tsx";

export interface LayerListActions {
  select(id: string): void;
  reorder(id: string, move: LayerOrderMove): void;
  toggleHidden(layer: Layer): void;
  duplicate(id: string): void;
  remove(id: string): void;
}

const TYPE_ICONS: Record<Layer["type"], IconName> = { text: "text", Image: "image", Video: "image", SVG: "shape" };

/**
 * The layers, front-most first (the design stores them bottom first). Each row
 * selects its layer and shows or hides it; the selected row also offers
 * reordering, duplicating and deleting.
 */
export function LayerList({ layers, selectedId, actions }: { layers: Layer[]; selectedId: string | null; actions: LayerListActions }) {
  const topFirst = [...layers].reverse();
  if (topFirst.length === 0) return <p className="muted small">No layers yet. Add text, an image or a shape.</p>;
  return (
    <ol className="layer-list" aria-label="Layers, front to back">
      {topFirst.map((layer, position) => {
        const selected = layer.id === selectedId;
        const atFront = position === 0;
        const atBack = position === topFirst.length - 1;
        return (
          <li key={layer.id} className={`layer-row${selected ? " layer-row--selected" : ""}${layer.hidden ? " layer-row--hidden" : ""}`}>
            <div className="layer-row__main">
              <button type="button" className="layer-row__select" aria-pressed={selected} onClick={() => actions.select(layer.id)}>
                <Icon name={TYPE_ICONS[layer.type]} size={16} />
                <span className="layer-row__name">{layer.name}</span>
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`${layer.hidden ? "Show" : "Hide"} ${layer.name}`}
                title={layer.hidden ? "Show" : "Hide"}
                onClick={() => actions.toggleHidden(layer)}
              >
                <Icon name={layer.hidden ? "eyeOff" : "eye"} size={16} />
              </button>
            </div>
            {selected ? (
              <div className="layer-row__tools" role="group" aria-label={`Arrange ${layer.name}`}>
                <ToolButton icon="up" label={`Bring ${layer.name} forward`} disabled={atFront} onClick={() => actions.reorder(layer.id, "up")} />
                <ToolButton icon="down" label={`Send ${layer.name} backward`} disabled={atBack} onClick={() => actions.reorder(layer.id, "down")} />
                <ToolButton icon="front" label={`Bring ${layer.name} to front`} disabled={atFront} onClick={() => actions.reorder(layer.id, "front")} />
                <ToolButton icon="back" label={`Send ${layer.name} to back`} disabled={atBack} onClick={() => actions.reorder(layer.id, "back")} />
                <ToolButton icon="copy" label={`Duplicate ${layer.name}`} onClick={() => actions.duplicate(layer.id)} />
                <ToolButton icon="trash" label={`Delete ${layer.name}`} onClick={() => actions.remove(layer.id)} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function ToolButton({ icon, label, disabled, onClick }: { icon: IconName; label: string; disabled?: boolean; onClick(): void }) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      <Icon name={icon} size={16} />
    </button>
  );
}
