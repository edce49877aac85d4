import type Konva from "konva";
import type { KonvaEventObject } from "konva/lib/Node";
import { useEffect, useRef, useState } from "react";
import { Image as KonvaImage, Layer as KonvaLayer, Rect, Stage, Transformer } from "react-konva";
import { PIN_HEIGHT, PIN_WIDTH, type Layer } from "../../../contracts/content/template.ts";

/** Where a layer ends up after a drag or a transform on the canvas. */
export interface LayerPlacement {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

export interface EditorCanvasProps {
  layers: Layer[];
  selectedId: string | null;
  /** The pin as the engine drew it. */
  image: HTMLImageElement | null;
  /** Screen pixels per pin pixel. */
  scale: number;
  onSelect(id: string | null): void;
  onPlace(id: string, placement: LayerPlacement): void;
}

const HANDLE_COLOR = "#267a65";
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Schema limits (contracts/content/template.ts): coordinates -2000..4000, sizes 1..4000, rotation -360..360. */
function placementOf(node: Konva.Node): LayerPlacement {
  const width = clamp(Math.round(node.width() * node.scaleX()), 1, 4000);
  const height = clamp(Math.round(node.height() * node.scaleY()), 1, 4000);
  // Nodes are positioned by their centre (the engine rotates a layer about its centre, as CSS does).
  return {
    x: clamp(Math.round(node.x() - width / 2), -2000, 4000),
    y: clamp(Math.round(node.y() - height / 2), -2000, 4000),
    width,
    height,
    rotation: clamp(Math.round(node.rotation() * 10) / 10, -360, 360),
  };
}

/** Puts a node back exactly where the (rounded) placement says, whether or not React re-renders it. */
function settle(node: Konva.Node, placement: LayerPlacement) {
  node.setAttrs({
    x: placement.x + placement.width / 2,
    y: placement.y + placement.height / 2,
    width: placement.width,
    height: placement.height,
    offsetX: placement.width / 2,
    offsetY: placement.height / 2,
    scaleX: 1,
    scaleY: 1,
    rotation: placement.rotation,
  });
}

/**
 * The pin on a Konva stage: the engine's picture at the bottom and, on top,
 * an invisible hit box per visible layer with the layer's position, size and
 * rotation. The Transformer on the selected box moves, resizes and rotates it;
 * the new placement goes back to the design when the gesture ends.
 */
export default function EditorCanvas({ layers, selectedId, image, scale, onSelect, onPlace }: EditorCanvasProps) {
  const transformer = useRef<Konva.Transformer>(null);
  const boxes = useRef(new Map<string, Konva.Rect>());
  const [hovered, setHovered] = useState<string | null>(null);
  const visible = layers.filter((layer) => !layer.hidden);
  const selected = visible.find((layer) => layer.id === selectedId) ?? null;

  useEffect(() => {
    const node = selected ? boxes.current.get(selected.id) : undefined;
    transformer.current?.nodes(node ? [node] : []);
    transformer.current?.getLayer()?.batchDraw();
  }, [selected]);

  const place = (id: string) => (event: KonvaEventObject<Event>) => {
    const placement = placementOf(event.target);
    settle(event.target, placement);
    onPlace(id, placement);
  };

  const onStagePress = (event: KonvaEventObject<MouseEvent | TouchEvent>) => {
    if (event.target === event.target.getStage()) onSelect(null);
  };

  return (
    <Stage
      width={Math.round(PIN_WIDTH * scale)}
      height={Math.round(PIN_HEIGHT * scale)}
      scaleX={scale}
      scaleY={scale}
      onMouseDown={onStagePress}
      onTouchStart={onStagePress}
    >
      <KonvaLayer>
        {image ? <KonvaImage image={image} width={PIN_WIDTH} height={PIN_HEIGHT} listening={false} /> : null}
        {visible.map((layer) => (
          <Rect
            key={layer.id}
            name={`layer-box ${layer.id}`}
            ref={(node) => {
              if (node) boxes.current.set(layer.id, node);
              else boxes.current.delete(layer.id);
            }}
            x={layer.x + layer.width / 2}
            y={layer.y + layer.height / 2}
            width={layer.width}
            height={layer.height}
            offsetX={layer.width / 2}
            offsetY={layer.height / 2}
            rotation={layer.rotation ?? 0}
            fill="transparent"
            stroke={hovered === layer.id && layer.id !== selectedId ? HANDLE_COLOR : undefined}
            strokeWidth={1.5}
            strokeScaleEnabled={false}
            dash={[6, 4]}
            draggable
            onMouseDown={() => onSelect(layer.id)}
            onTouchStart={() => onSelect(layer.id)}
            onDragStart={() => onSelect(layer.id)}
            onDragEnd={place(layer.id)}
            onTransformEnd={place(layer.id)}
            onMouseEnter={(event) => {
              setHovered(layer.id);
              const container = event.target.getStage()?.container();
              if (container) container.style.cursor = "move";
            }}
            onMouseLeave={(event) => {
              setHovered((current) => (current === layer.id ? null : current));
              const container = event.target.getStage()?.container();
              if (container) container.style.cursor = "";
            }}
          />
        ))}
        <Transformer
          ref={transformer}
          rotateEnabled
          flipEnabled={false}
          keepRatio={false}
          anchorSize={10}
          anchorStroke={HANDLE_COLOR}
          borderStroke={HANDLE_COLOR}
          rotationSnaps={[0, 45, 90, 135, 180, 225, 270, 315]}
          boundBoxFunc={(previous, next) => (Math.abs(next.width) < 5 || Math.abs(next.height) < 5 ? previous : next)}
        />
      </KonvaLayer>
    </Stage>
  );
}
