/**
 * Who may talk to main over IPC: only our own page. A frame qualifies when its URL is the renderer we
 * loaded (the same file for a packaged build, the same origin for the dev server). The main-frame check
 * lives in the IPC gate; this is the origin half ([code style point 6](../../docs/code-style.md#ipc-contract), after VS Code's validatedIpcMain).
 */

/** Builds the URL check for a renderer loaded from `rendererUrl`. */
export function createSenderCheck(rendererUrl: string): (frameUrl: string) => boolean {
  const expected = new URL(rendererUrl);
  return (frameUrl) => {
    if (!URL.canParse(frameUrl)) {
      return false;
    }
    const url = new URL(frameUrl);
    if (expected.protocol === 'file:') {
      // Any other file on disk is not our page, even though it shares the `file://` origin.
      return url.protocol === 'file:' && url.host === expected.host && url.pathname === expected.pathname;
    }
    return url.origin === expected.origin;
  };
}
