/**
 * Who may talk to main over IPC: only our own page. A frame qualifies when it shows the renderer we
 * loaded: the same file on disk for a packaged build (compared as paths, not URL strings:
 * [who may use IPC](../../docs/desktop-runtime.md#who-may-use-ipc)), the same origin for the dev server.
 * The main-frame check lives in the IPC gate; this is the origin half ([code style point 6](../../docs/code-style.md#ipc-contract), after VS Code's validatedIpcMain).
 */
import { filePathOfUrl, samePath } from './file-url-path';

/** The page main loaded: its file (a packaged or built run) or the dev server's URL. */
export type RendererPage = { file: string } | { devServerUrl: string };

/** Builds the check for the renderer `page`, on `platform` (file paths follow its rules). */
export function createPageSenderCheck(
  page: RendererPage,
  platform: NodeJS.Platform = process.platform,
): (frameUrl: string) => boolean {
  if ('file' in page) {
    const expected = page.file;
    return (frameUrl) => {
      // Any other file on disk is not our page, even though it shares the `file://` origin.
      const path = filePathOfUrl(frameUrl, platform);
      return path !== null && samePath(path, expected, platform);
    };
  }
  const origin = new URL(page.devServerUrl).origin;
  return (frameUrl) => URL.canParse(frameUrl) && new URL(frameUrl).origin === origin;
}

/** Builds the check for a renderer loaded from `rendererUrl` (a `file://` URL is compared by its path). */
export function createSenderCheck(
  rendererUrl: string,
  platform: NodeJS.Platform = process.platform,
): (frameUrl: string) => boolean {
  const file = new URL(rendererUrl).protocol === 'file:' ? filePathOfUrl(rendererUrl, platform) : null;
  if (new URL(rendererUrl).protocol === 'file:' && file === null) {
    return () => false;
  }
  return createPageSenderCheck(file !== null ? { file } : { devServerUrl: rendererUrl }, platform);
}
