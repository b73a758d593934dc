/**
 * What the panel-server.test files share: their fixtures and helpers.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startPanelServer, type PanelServer } from '../../../electron/panel-server/panel-server';
import type { FeedItem } from '../../../shared/views';
import { createFakeApp, makeRendererDir, rawGet, TestSocket, type FakeApp } from '../../helpers/panel-fakes';

export const fx = {} as {
  app: FakeApp;
  server: PanelServer;
  rendererDir: string;
  origin: string;
  wsUrl: string;
};

export const sockets: TestSocket[] = [];

export function socket(
  url = fx.wsUrl,
  options: { origin?: string; headers?: Record<string, string> } = { origin: fx.origin },
): TestSocket {
  const s = new TestSocket(url, options);
  sockets.push(s);
  return s;
}

/** The value the server puts in its cookie when the page loads with the token. */
export async function pageCookie(): Promise<string> {
  const res = await rawGet(fx.server.port, `/?token=${fx.server.token}`);
  const header = (res.headers['set-cookie'] ?? [])[0] ?? '';
  const value = /^greenroom_panel_\d+=([^;]+);/.exec(header)?.[1];
  if (value === undefined) {
    throw new Error(`no panel cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  }
  return value;
}

/** A socket past the hello, ready for requests. */
export async function authorizedSocket(): Promise<TestSocket> {
  const s = socket();
  await s.opened();
  s.send({ type: 'hello', token: fx.server.token });
  await s.next('ready');
  return s;
}

export const feedItem: FeedItem = {
  id: 'f1',
  kind: 'follow',
  atMs: 1,
  text: 'pixelpanda followed',
  userId: 7,
  username: 'pixelpanda',
  eventType: 'channel.followed',
};

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.app = createFakeApp();
    fx.rendererDir = makeRendererDir().dir;
    fx.server = await startPanelServer({
      router: fx.app.router,
      events: fx.app.events,
      port: 0,
      staticDir: fx.rendererDir,
      log: (line) => fx.app.logs.push(line),
      imageHosts: ['https://files.kick.com/emotes/'],
    });
    fx.origin = `http://127.0.0.1:${fx.server.port}`;
    fx.wsUrl = `ws://127.0.0.1:${fx.server.port}/ws`;
  });

  afterEach(async () => {
    for (const s of sockets.splice(0)) {
      s.ws.terminate();
    }
    await fx.server.close();
    rmSync(dirname(fx.rendererDir), { recursive: true, force: true });
  });
}
