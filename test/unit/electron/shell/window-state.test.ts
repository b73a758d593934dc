/** Remembered window placement: reused when visible, recentred when its monitor is gone, sizes clamped. */
import { describe, expect, it } from 'vitest';
import { parseWindowState, placeWindow, WINDOW_SIZES } from '../../../../electron/shell/window-state';

const laptop = { x: 0, y: 0, width: 1920, height: 1040 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('parseWindowState', () => {
  it('reads a stored state and rejects anything malformed', () => {
    expect(parseWindowState({ bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: true })).toEqual({
      bounds: { x: 10, y: 20, width: 800, height: 600 },
      maximized: true,
    });
    for (const bad of [
      null,
      'x',
      {},
      { bounds: { x: 1, y: 2, width: 0, height: 5 } },
      { bounds: { x: 1.5, y: 2, width: 5, height: 5 } },
      { bounds: { x: 1, y: 2, width: '5', height: 5 } },
      { bounds: { x: 1e9, y: 2, width: 5, height: 5 } },
    ]) {
      expect(parseWindowState(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('placeWindow', () => {
  it('uses the default size, centred by the OS, the first time', () => {
    expect(placeWindow(null, [laptop], WINDOW_SIZES.main)).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it('puts a window back where it was on a monitor that is still there', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 420, height: 700 }, maximized: false };
    expect(placeWindow(saved, [laptop, rightMonitor], WINDOW_SIZES.chat)).toEqual({
      x: 2000,
      y: 100,
      width: 420,
      height: 700,
      maximized: false,
    });
  });

  it('drops the position of a window whose monitor was unplugged, keeping size and maximised', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: true };
    expect(placeWindow(saved, [laptop], WINDOW_SIZES.main)).toEqual({ width: 1000, height: 700, maximized: true });
  });

  it('keeps sizes between the minimum and the largest display', () => {
    const tiny = { bounds: { x: 10, y: 10, width: 50, height: 50 }, maximized: false };
    expect(placeWindow(tiny, [laptop], WINDOW_SIZES.main)).toMatchObject({ width: 640, height: 480 });
    const huge = { bounds: { x: 0, y: 0, width: 9000, height: 9000 }, maximized: false };
    expect(placeWindow(huge, [laptop], WINDOW_SIZES.main)).toMatchObject({ x: 0, y: 0, width: 1920, height: 1040 });
  });
});
