/**
 * The handler main gives `protocol.handle('file', …)`: the renderer's own page is read and served with the
 * emote host's image policy (desktop-csp.ts); every other file goes to Electron's built-in file handler
 * unchanged ([emote images in the desktop window](../../docs/desktop-runtime.md#emote-images-in-the-desktop-window)).
 * Which request is the page is decided as the IPC sender check decides it: by the file path its URL names.
 */
import { withEmoteHostPolicy } from './desktop-csp';
import { filePathOfUrl, samePath } from './file-url-path';

export interface RendererFileDeps {
  /** The page main loads (out/renderer/index.html, inside the asar when packaged). */
  rendererIndex: string;
  platform: NodeJS.Platform;
  /** The emote host the settings name now. */
  emoteHost: () => string;
  readFile: (path: string) => Promise<string>;
  /** Electron's own file handling (`net.fetch(request, { bypassCustomProtocolHandlers: true })`). */
  passThrough: (request: Request) => Promise<Response>;
}

export function createRendererFileHandler(deps: RendererFileDeps): (request: Request) => Promise<Response> {
  return async (request) => {
    const path = filePathOfUrl(request.url, deps.platform);
    if (path === null || !samePath(path, deps.rendererIndex, deps.platform)) {
      return deps.passThrough(request);
    }
    const html = await deps.readFile(deps.rendererIndex);
    return new Response(withEmoteHostPolicy(html, deps.emoteHost()), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  };
}
