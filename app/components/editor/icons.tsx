/** Small line icons for the editor's buttons (decorative: every button carries its own label). */
const PATHS = {
  eye: "M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z",
  eyeOff:
    "M3 3l18 18 M10.6 5.1A10.8 10.8 0 0 1 12 5c7 0 11 7 11 7a18 18 0 0 1-3.2 4.1 M6.6 6.6C3.2 8.6 1 12 1 12s4 7 11 7a10.6 10.6 0 0 0 5.4-1.5 M9.9 9.9a3 3 0 0 0 4.2 4.2",
  up: "M12 19V5 M5 12l7-7 7 7",
  down: "M12 5v14 M19 12l-7 7-7-7",
  front: "M5 4h14 M12 20V9 M6 14l6-6 6 6",
  back: "M5 20h14 M12 4v11 M18 10l-6 6-6-6",
  copy: "M9 9h11v11H9z M5 15H4V4h11v1",
  trash: "M3 6h18 M8 6V4h8v2 M19 6l-1 14H6L5 6 M10 11v6 M14 11v6",
  undo: "M9 14L4 9l5-5 M4 9h11a5 5 0 0 1 0 10h-3",
  redo: "M15 14l5-5-5-5 M20 9H9a5 5 0 0 0 0 10h3",
  plus: "M12 5v14 M5 12h14",
  minus: "M5 12h14",
  text: "M4 7V4h16v3 M12 4v16 M9 20h6",
  image: "M3 3h18v18H3z M8.5 10a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z M21 15l-5-5L5 21",
  shape: "M3 11h8v10H3z M17 3l5 8h-10z M17 14a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z",
  back_arrow: "M19 12H5 M12 19l-7-7 7-7",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
