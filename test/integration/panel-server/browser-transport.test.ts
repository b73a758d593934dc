/**
 * The panel's browser transport against the real panel server (real `ws` sockets, real router): requests
 * and events, validation answers, queued requests before the handshake, in-flight requests failing
 * cleanly on a drop, capped and jittered reconnects driven by injected timers, the refused-token stop,
 * and the preload transport and `pickTransport` choice.
 */
import { describe, expect, it } from 'vitest';
import { createPanelApi } from '../../../shared/panel-api';
import {
  createPreloadTransport,
  pickTransport,
  takePageToken,
  type ConnectionStatus,
  type PageEnvironment,
  type PreloadBridge,
} from '../../../renderer/src/lib/transport';
import {
  REQUEST_MS,
  connect,
  fx,
  isReconnect,
  startServer,
  statusReached,
  useSetup,
} from './browser-transport-fixtures';

useSetup();

describe('createWebSocketTransport', () => {
  it('connects, answers requests through the named API, and validates on the server', async () => {
    const connection = connect();
    expect(connection.status).toBe('connecting');
    const api = createPanelApi(connection);
    // Made before the handshake: queued, then sent once the server says ready.
    const sent = api.chat.send({ content: 'hello chat', as: 'bot' });
    await statusReached(connection, 'open');
    expect(await sent).toEqual({ ok: true, value: { echo: [{ content: 'hello chat', as: 'bot' }] } });
    const bad = await api.mod.timeout({ userId: 5, minutes: 0 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    const unknown = await connection.invoke('nope:nothing' as never, []);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } });
    expect(fx.app.calls.map((c) => c.channel)).toEqual(['chat:send']);
  });

  it('delivers events to listeners until they unsubscribe, and ignores unknown events', async () => {
    const connection = connect();
    const seen: unknown[] = [];
    const off = connection.on('chat:deleted', (payload) => seen.push(payload));
    connection.on('mod:action', () => {
      throw new Error('a broken listener');
    });
    await statusReached(connection, 'open');
    fx.app.events.emit('chat:deleted', { messageId: 'm1' });
    await expect.poll(() => seen).toEqual([{ messageId: 'm1' }]);
    off();
    fx.app.events.emit('chat:deleted', { messageId: 'm2' });
    // A request round trip after the emit: the event (had it been delivered) arrived before the answer.
    await connection.invoke('chat:history', []);
    expect(seen).toEqual([{ messageId: 'm1' }]);
  });

  it('fails in-flight requests cleanly when the connection drops, then reconnects and keeps its listeners', async () => {
    fx.app.answer('chat:history', () => new Promise(() => undefined));
    const connection = connect();
    const statuses: ConnectionStatus[] = [];
    connection.onStatus((s) => statuses.push(s));
    const seen: unknown[] = [];
    connection.on('chat:deleted', (payload) => seen.push(payload));
    await statusReached(connection, 'open');
    const stuck = connection.invoke('chat:history', []);
    await expect.poll(() => fx.app.calls.length).toBe(1);

    const port = fx.server.port;
    await fx.server.close();
    expect(await stuck).toEqual({
      ok: false,
      error: { code: 'AppUnreachable', message: 'the connection to Greenroom was lost' },
    });
    expect(connection.status).toBe('reconnecting');
    // Cut off, a call fails at once, in the app's name, and is never held to run after the reconnect.
    const whileDown = await createPanelApi(connection).chat.send({ content: 'while down', as: 'user' });
    expect(whileDown).toMatchObject({ ok: false, error: { code: 'AppUnreachable' } });
    // Equal jitter with random 0.5: three quarters of the 500 ms ceiling.
    expect(fx.timers.delays().filter(isReconnect)).toEqual([375]);

    await startServer(port);
    fx.timers.run(isReconnect);
    await statusReached(connection, 'open');
    expect(statuses).toEqual(['open', 'reconnecting', 'open']);
    expect(fx.app.calls.map((c) => c.channel)).toEqual(['chat:history']);
    fx.app.events.emit('chat:deleted', { messageId: 'after' });
    await expect.poll(() => seen).toEqual([{ messageId: 'after' }]);
  });

  it('backs off exponentially up to the cap while the server stays away, with jitter in the bottom half', async () => {
    const port = fx.server.port;
    await fx.server.close();
    const connection = connect({ url: `ws://127.0.0.1:${port}/ws`, random: () => 0 });
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      await expect.poll(() => fx.timers.delays().filter(isReconnect).length).toBe(1);
      delays.push(...fx.timers.run(isReconnect));
    }
    expect(delays.map(Math.round)).toEqual([500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect(connection.status).toBe('reconnecting');
    connection.close();
    expect(fx.timers.tasks.size).toBe(0);

    const low = connect({ url: `ws://127.0.0.1:${port}/ws`, random: () => 0.999_999 });
    await expect.poll(() => fx.timers.tasks.size).toBe(1);
    expect(fx.timers.delays()).toEqual([250]);
    low.close();
  });

  it('ends a call made before a failed first try at once, says when it last tried, and tries again on request', async () => {
    const port = fx.server.port;
    await fx.server.close();
    let clock = 1_000;
    const connection = connect({ url: `ws://127.0.0.1:${port}/ws`, now: () => clock });
    expect(connection.lastAttemptMs).toBe(1_000);
    const attempts: number[] = [];
    connection.onAttempt((atMs) => attempts.push(atMs));
    // Greenroom is not running when the dock opens: the snapshot call ends with the app's failure, not a wait.
    const snapshot = await connection.invoke('app:snapshot', []);
    expect(snapshot).toMatchObject({ ok: false, error: { code: 'AppUnreachable' } });
    expect(connection.status).toBe('reconnecting');

    clock = 2_000;
    fx.timers.run(isReconnect);
    expect(attempts).toEqual([2_000]);
    await expect.poll(() => fx.timers.delays().filter(isReconnect).length).toBe(1);
    // "Try now": the waiting step is dropped and an attempt starts at once.
    await startServer(port);
    clock = 3_000;
    connection.retryNow();
    expect(fx.timers.delays().filter(isReconnect)).toEqual([]);
    expect(connection.lastAttemptMs).toBe(3_000);
    await statusReached(connection, 'open');
    expect(await connection.invoke('feed:history', [])).toMatchObject({ ok: true });
  });

  it('times a request out, and ignores its late answer', async () => {
    let release: (v: unknown) => void = () => undefined;
    fx.app.answer('chat:history', () => new Promise((resolve) => (release = resolve)));
    const connection = connect();
    await statusReached(connection, 'open');
    const pending = connection.invoke('chat:history', []);
    await expect.poll(() => fx.app.calls.length).toBe(1);
    expect(fx.timers.run((ms) => ms === REQUEST_MS)).toEqual([REQUEST_MS]);
    expect(await pending).toEqual({
      ok: false,
      error: { code: 'AppTimeout', message: 'chat:history: no answer from Greenroom in 30 s' },
    });
    release(['late']);
    expect(await connection.invoke('feed:history', [])).toMatchObject({ ok: true });
  });

  it('stops for good when the server refuses the token', async () => {
    const connection = connect({ token: 'wrong' });
    const queued = connection.invoke('chat:history', []);
    await statusReached(connection, 'unauthorized');
    expect(await queued).toMatchObject({ ok: false, error: { code: 'ForbiddenSender' } });
    expect(fx.timers.delays().filter(isReconnect)).toEqual([]);
    expect(await connection.invoke('chat:history', [])).toMatchObject({ ok: false, error: { code: 'AppUnreachable' } });
    expect(fx.app.calls).toEqual([]);
  });

  it('fails queued requests at once when the queue is full, and everything on close', async () => {
    const port = fx.server.port;
    await fx.server.close();
    const connection = connect({ url: `ws://127.0.0.1:${port}/ws`, maxQueued: 1 });
    const first = connection.invoke('chat:history', []);
    expect(await connection.invoke('chat:history', [])).toMatchObject({ ok: false, error: { code: 'AppUnreachable' } });
    connection.close();
    expect(await first).toMatchObject({ ok: false, error: { code: 'AppUnreachable' } });
    expect(connection.status).toBe('closed');
    expect(fx.timers.tasks.size).toBe(0);
  });
});

describe('createPreloadTransport', () => {
  it('passes calls to the bridge and turns a throw or a non-result into Internal', async () => {
    const calls: unknown[] = [];
    const bridge: PreloadBridge = {
      invoke: (channel, args) => {
        calls.push([channel, args]);
        if (channel === 'chat:history') {
          return Promise.reject(new Error('boom'));
        }
        return Promise.resolve(channel === 'feed:history' ? 'junk' : { ok: true, value: 1 });
      },
      send: (channel, args) => calls.push(['send', channel, args]),
      on: () => () => undefined,
    };
    const transport = createPreloadTransport(bridge);
    expect(transport.status).toBe('open');
    expect(await transport.invoke('app:snapshot', [])).toEqual({ ok: true, value: 1 });
    expect(await transport.invoke('chat:history', [])).toEqual({
      ok: false,
      error: { code: 'Internal', message: 'boom' },
    });
    expect(await transport.invoke('feed:history', [])).toMatchObject({ ok: false, error: { code: 'Internal' } });
    transport.send('window:pop-out-chat', []);
    expect(calls).toContainEqual(['send', 'window:pop-out-chat', []]);
  });
});

describe('pickTransport', () => {
  const page = (search: string, extra: Partial<PageEnvironment> = {}): PageEnvironment & { replaced: string[] } => {
    const store = new Map<string, string>();
    const replaced: string[] = [];
    return {
      location: { protocol: 'http:', host: '127.0.0.1:7531', search, pathname: '/', hash: '#/chat' },
      sessionStorage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
      history: { replaceState: (_d, _u, url) => void replaced.push(url) },
      replaced,
      ...extra,
    };
  };

  it('uses the preload bridge under Electron', () => {
    const greenroom: PreloadBridge = {
      invoke: () => Promise.resolve(null),
      send: () => undefined,
      on: () => () => undefined,
    };
    expect(pickTransport(page('', { greenroom })).status).toBe('open');
  });

  it('takes the token from the URL once, keeps it for reloads and removes it from the address bar', () => {
    const env = page('?token=abc&x=1');
    expect(takePageToken(env)).toBe('abc');
    expect(env.replaced).toEqual(['/?x=1#/chat']);
    env.location.search = '?x=1';
    expect(takePageToken(env)).toBe('abc');
  });

  it('opens the WebSocket back to the serving host', () => {
    const urls: string[] = [];
    const env = page('?token=t', {
      WebSocket: class {
        onopen = null;
        onmessage = null;
        onclose = null;
        onerror = null;
        constructor(url: string) {
          urls.push(url);
        }
        send(): void {}
        close(): void {}
      },
    });
    const connection = pickTransport(env);
    expect(urls).toEqual(['ws://127.0.0.1:7531/ws']);
    expect(connection.status).toBe('connecting');
    connection.close();
  });
});
