/**
 * The id the app sets on Windows is the one the installer stamps on its shortcut, or Windows drops the
 * app's notifications (docs/desktop-runtime.md#notifications-on-windows).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { APP_USER_MODEL_ID } from '../../../../electron/shell/app-id';

describe('APP_USER_MODEL_ID', () => {
  it("is electron-builder's appId, read as electron-builder reads its config", () => {
    const require = createRequire(import.meta.url);
    // js-yaml comes with electron-builder (app-builder-lib reads its YAML configs with it).
    const yaml = createRequire(require.resolve('app-builder-lib'))('js-yaml') as {
      load(text: string): unknown;
    };
    const config = yaml.load(readFileSync('electron-builder.yml', 'utf8')) as { appId?: unknown };
    expect(config.appId).toBe(APP_USER_MODEL_ID);
    expect(APP_USER_MODEL_ID).toBe('app.greenroom.desktop');
  });
});
