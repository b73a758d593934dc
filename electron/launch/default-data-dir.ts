/**
 * Where Greenroom keeps its data when `GREENROOM_DATA_DIR` is not set: the same folder Electron's
 * `app.getPath('userData')` gives for the product name "Greenroom", so the desktop app and the panel-only
 * mode share settings and the webhook journal.
 * @see https://www.electronjs.org/docs/latest/api/app#appgetpathname
 */
import { join } from 'node:path';

export const PRODUCT_NAME = 'Greenroom';

/** Electron's userData folder for this product on `platform`. */
export function defaultDataDir(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  }
  if (platform === 'darwin') {
    return join(home, 'Library', 'Application Support', PRODUCT_NAME);
  }
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return join(xdg ? xdg : join(home, '.config'), PRODUCT_NAME);
}
