/**
 * Window size and position remembered between runs. Pure: main reads the saved value and the displays'
 * work areas, and this decides where the window goes, so a window saved on a monitor that is gone comes
 * back centred on one that is there instead of off-screen.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** What to create the window with: no x/y means "let the OS centre it". */
export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface WindowSizes {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

/** Sizes per window kind: the main panel, the popped-out chat, the compact companion beside OBS. */
export const WINDOW_SIZES = {
  main: { width: 1200, height: 800, minWidth: 640, minHeight: 480 },
  chat: { width: 420, height: 720, minWidth: 300, minHeight: 320 },
  companion: { width: 380, height: 600, minWidth: 300, minHeight: 320 },
} as const satisfies Record<string, WindowSizes>;

export type WindowKind = keyof typeof WINDOW_SIZES;

/** How much of a saved window must be on some display to reuse its position. */
const MIN_VISIBLE_PX = 64;

function isFiniteInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 100_000;
}

/** Reads a stored state; anything malformed is null (the defaults are used). */
export function parseWindowState(value: unknown): WindowState | null {
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  const { bounds, maximized } = value as { bounds?: Record<string, unknown>; maximized?: unknown };
  if (
    !bounds ||
    !isFiniteInt(bounds.x) ||
    !isFiniteInt(bounds.y) ||
    !isFiniteInt(bounds.width) ||
    !isFiniteInt(bounds.height) ||
    bounds.width <= 0 ||
    bounds.height <= 0
  ) {
    return null;
  }
  return {
    bounds: { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height },
    maximized: maximized === true,
  };
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/** Where a window goes given its saved state (or none) and the current displays' work areas. */
export function placeWindow(
  saved: WindowState | null,
  workAreas: readonly Rect[],
  sizes: WindowSizes,
): WindowPlacement {
  if (!saved) {
    return { width: sizes.width, height: sizes.height, maximized: false };
  }
  const largest = workAreas.reduce(
    (max, area) => ({ width: Math.max(max.width, area.width), height: Math.max(max.height, area.height) }),
    { width: sizes.width, height: sizes.height },
  );
  const width = Math.min(Math.max(saved.bounds.width, sizes.minWidth), largest.width);
  const height = Math.min(Math.max(saved.bounds.height, sizes.minHeight), largest.height);
  const rect = { ...saved.bounds, width, height };
  const visible = workAreas.some((area) => {
    const o = overlap(rect, area);
    return o.width >= MIN_VISIBLE_PX && o.height >= MIN_VISIBLE_PX;
  });
  return visible
    ? { x: rect.x, y: rect.y, width, height, maximized: saved.maximized }
    : { width, height, maximized: saved.maximized };
}
