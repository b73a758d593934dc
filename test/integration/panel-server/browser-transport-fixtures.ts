/**
 * What the browser-transport.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach } from 'vitest';
import { WebSocket } from 'ws';
import { startPanelServer, type PanelServer } from '../../../electron/panel-server/panel-server';
import {
  createWebSocketTransport,
  type ConnectionStatus,
  type PanelConnection,
  type SocketLike,
  type WebSocketTransportOptions,
} from '../../../renderer/src/lib/transport';
import { createFakeApp, makeRendererDir, type FakeApp } from '../../helpers/panel-fakes';

/** Timers the test runs by hand: nothing waits on the wall clock. */
export class ManualTimers {
  #next = 1;
  readonly tasks = new Map<number, { callback: () => void; ms: number }>();

  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = this.#next++;
    this.tasks.set(id, { callback, ms });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.tasks.delete(handle as number);
  };

  /** Runs (and removes) every task whose delay matches `pick`. */
  run(pick: (ms: number) => boolean): number[] {
    const ran: number[] = [];
    for (const [id, task] of [...this.tasks]) {
      if (pick(task.ms)) {
        this.tasks.delete(id);
        ran.push(task.ms);
        task.callback();
      }
    }
    return ran;
  }

  delays(): number[] {
    return [...this.tasks.values()].map((t) => t.ms);
  }
}

export const REQUEST_MS = 30_000;
export const isReconnect = (ms: number): boolean => ms < REQUEST_MS;

export const fx = {} as {
  app: FakeApp;
  server: PanelServer;
  timers: ManualTimers;
};

export const rendererDir = makeRendererDir().dir;
export const connections: PanelConnection[] = [];

/** The `ws` client with the Origin a browser would send for this server. */
export function socketClass(port: number): new (url: string) => SocketLike {
  return class extends WebSocket {
    constructor(url: string) {
      super(url, { origin: `http://127.0.0.1:${port}` });
    }
  };
}

export function connect(overrides: Partial<WebSocketTransportOptions> = {}): PanelConnection {
  const connection = createWebSocketTransport({
    url: `ws://127.0.0.1:${fx.server.port}/ws`,
    token: fx.server.token,
    WebSocketImpl: socketClass(fx.server.port),
    timers: fx.timers,
    random: () => 0.5,
    timeoutMs: () => REQUEST_MS,
    ...overrides,
  });
  connections.push(connection);
  return connection;
}

export function statusReached(connection: PanelConnection, wanted: ConnectionStatus): Promise<void> {
  if (connection.status === wanted) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const off = connection.onStatus((status) => {
      if (status === wanted) {
        off();
        resolve();
      }
    });
  });
}

export async function startServer(port = 0): Promise<void> {
  fx.server = await startPanelServer({
    router: fx.app.router,
    events: fx.app.events,
    port,
    staticDir: rendererDir,
    ...(fx.server ? { token: fx.server.token } : {}),
  });
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.app = createFakeApp();
    fx.timers = new ManualTimers();
    fx.server = undefined as unknown as PanelServer;
    await startServer();
  });

  afterEach(async () => {
    for (const c of connections.splice(0)) {
      c.close();
    }
    await fx.server.close();
  });
}
