/** The default data dir matches Electron's userData for "Greenroom" on each platform. */
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../../electron/launch/default-data-dir';

describe('defaultDataDir', () => {
  it('follows XDG on Linux, Application Support on macOS, APPDATA on Windows', () => {
    expect(defaultDataDir('linux', {}, '/home/s')).toBe('/home/s/.config/Greenroom');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/s')).toBe('/x/cfg/Greenroom');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '  ' }, '/home/s')).toBe('/home/s/.config/Greenroom');
    expect(defaultDataDir('darwin', {}, '/Users/s')).toBe('/Users/s/Library/Application Support/Greenroom');
    expect(defaultDataDir('win32', { APPDATA: '/c/Users/s/AppData/Roaming' }, '/c/Users/s')).toBe(
      '/c/Users/s/AppData/Roaming/Greenroom',
    );
  });
});
