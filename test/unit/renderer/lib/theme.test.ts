import { describe, expect, it } from 'vitest';
import { applyTheme, resolveTheme } from '../../../../renderer/src/lib/theme';

const plain = { light: false, moreContrast: false };

describe('resolveTheme', () => {
  it('draws the streamer’s pick whatever the computer asks for', () => {
    const asks = { light: true, moreContrast: true };
    expect(resolveTheme('dark', asks)).toBe('dark');
    expect(resolveTheme('light', plain)).toBe('light');
    expect(resolveTheme('high-contrast', plain)).toBe('high-contrast');
  });

  it('follows the computer on System: more contrast first, then light, else dark', () => {
    expect(resolveTheme('system', plain)).toBe('dark');
    expect(resolveTheme('system', { light: true, moreContrast: false })).toBe('light');
    expect(resolveTheme('system', { light: true, moreContrast: true })).toBe('high-contrast');
    expect(resolveTheme('system', { light: false, moreContrast: true })).toBe('high-contrast');
  });

  it('keeps the dark theme for an older main that sends no choice', () => {
    expect(resolveTheme(undefined, { light: true, moreContrast: true })).toBe('dark');
  });
});

describe('applyTheme', () => {
  it('names the theme on the root, where the palettes are keyed', () => {
    const root = { dataset: {} as Record<string, string> } as unknown as HTMLElement;
    applyTheme(root, 'light');
    expect(root.dataset.theme).toBe('light');
    applyTheme(root, 'high-contrast');
    expect(root.dataset.theme).toBe('high-contrast');
  });
});
