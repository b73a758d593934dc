/**
 * The app's one identity on Windows: the AppUserModelID the installer stamps on the Start menu shortcut
 * (electron-builder's `appId`, which a test holds equal to this). Windows shows a desktop notification only
 * for an app whose process carries the same id as its shortcut ([notifications on Windows](../../docs/desktop-runtime.md#notifications-on-windows)).
 */
export const APP_USER_MODEL_ID = 'app.greenroom.desktop';
