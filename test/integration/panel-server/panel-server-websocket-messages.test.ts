/**
 * The panel server over real HTTP and WebSocket on 127.0.0.1, with the real contract router behind it:
 * the token, Host and Origin guards, the static files and their headers, traversal, the WebSocket
 * handshake, validation answers, event fan-out to authorized sockets only, and hostile frames.
 *
 * This file: “WebSocket messages”; “events”.
 */
import { describe, expect, it } from 'vitest';
import { startPanelServer } from '../../../electron/panel-server/panel-server';
import { PANEL_CLOSE, PANEL_MAX_FRAME_BYTES } from '../../../shared/panel-protocol';
import { authorizedSocket, feedItem, fx, socket, useSetup } from './panel-server-fixtures';

useSetup();

describe('WebSocket messages', () => {
  it('runs a valid request through the router and answers with its id', async () => {
    const s = await authorizedSocket();
    s.send({ id: 7, type: 'invoke', channel: 'chat:send', args: [{ content: 'hi', as: 'bot' }] });
    expect(await s.next('result')).toEqual({
      type: 'result',
      id: 7,
      result: { ok: true, value: { echo: [{ content: 'hi', as: 'bot' }] } },
    });
    expect(fx.app.calls).toEqual([{ channel: 'chat:send', args: [{ content: 'hi', as: 'bot' }] }]);
  });

  it('answers a bad argument InvalidArgument and an unknown channel UnknownChannel, running nothing', async () => {
    const s = await authorizedSocket();
    s.send({ id: 1, type: 'invoke', channel: 'chat:send', args: [{ content: '', as: 'bot' }] });
    const bad = await s.next('result');
    expect(bad.result).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    s.send({ id: 2, type: 'invoke', channel: 'mod:ban', args: [{ userId: -1, extra: true }] });
    expect((await s.next('result')).result).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    s.send({ id: 3, type: 'invoke', channel: 'fs:read-file', args: ['/etc/passwd'] });
    const unknown = await s.next('result');
    expect(unknown).toMatchObject({ id: 3, result: { ok: false, error: { code: 'UnknownChannel' } } });
    s.send({ id: 4, type: 'invoke', channel: 'toString', args: [] });
    expect((await s.next('result')).result).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } });
    expect(fx.app.calls).toEqual([]);
  });

  it('passes sends through the router, which drops invalid ones', async () => {
    const s = await authorizedSocket();
    s.send({ type: 'send', channel: 'app:open-external', args: [{ url: 'file:///etc/passwd' }] });
    s.send({ type: 'send', channel: 'window:pop-out-chat', args: [] });
    // A request after the sends: its answer proves both sends were handled (frames are processed in order).
    s.send({ id: 9, type: 'invoke', channel: 'chat:history', args: [] });
    await s.next('result');
    expect(fx.app.calls.map((c) => c.channel)).toEqual(['window:pop-out-chat', 'chat:history']);
    expect(fx.app.logs.some((l) => l.includes('dropped a message: InvalidArgument'))).toBe(true);
  });

  it('answers Internal when a handler throws, without the error text', async () => {
    fx.app.answer('chat:history', () => Promise.reject(new Error('secret path /home/x/.config')));
    const s = await authorizedSocket();
    s.send({ id: 5, type: 'invoke', channel: 'chat:history', args: [] });
    const res = await s.next('result');
    expect(res.result).toMatchObject({ ok: false, error: { code: 'Internal' } });
    expect(JSON.stringify(res)).not.toContain('secret path');
  });

  it('answers malformed frames with an error frame and keeps serving', async () => {
    const s = await authorizedSocket();
    for (const frame of [
      'not json',
      '[]',
      'null',
      '{"type":"invoke","id":-1,"channel":"chat:history","args":[]}',
      '{"type":"invoke","id":"x","channel":"chat:history","args":[]}',
      '{"type":"rm -rf"}',
      '{"type":"hello","token":"again"}',
    ]) {
      s.send(frame);
      expect((await s.next('error')).error.code, frame).toBe('InvalidArgument');
    }
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await s.next('error')).error.message).toContain('binary');
    s.send({ id: 1, type: 'invoke', channel: 'chat:history', args: [] });
    expect((await s.next('result')).result.ok).toBe(true);
  });

  it('closes a socket that sends an oversize frame, and the server keeps running', async () => {
    const s = await authorizedSocket();
    s.send({ id: 1, type: 'invoke', channel: 'chat:history', args: ['x'.repeat(PANEL_MAX_FRAME_BYTES)] });
    expect(await s.closed()).toBe(PANEL_CLOSE.tooBig);
    const next = await authorizedSocket();
    next.send({ id: 2, type: 'invoke', channel: 'chat:history', args: [] });
    expect((await next.next('result')).id).toBe(2);
  });

  it('accepts the largest legal request (1000 redemption ids of 64 characters)', async () => {
    const s = await authorizedSocket();
    const ids = Array.from({ length: 1000 }, (_, i) => String(i).padStart(64, '0'));
    s.send({ id: 3, type: 'invoke', channel: 'redemptions:accept', args: [{ ids }] });
    expect((await s.next('result')).result.ok).toBe(true);
  });
});

describe('events', () => {
  it("sends one turn's events in one frame, in order, serialised once for every client", async () => {
    const a = await authorizedSocket();
    const b = await authorizedSocket();
    const before = [a.frames.length, b.frames.length];
    for (let i = 0; i < 100; i++) {
      fx.app.events.emit('chat:deleted', { messageId: `burst-${i}` });
    }
    for (const s of [a, b]) {
      for (let i = 0; i < 100; i++) {
        expect(await s.next('event')).toMatchObject({ payload: { messageId: `burst-${i}` } });
      }
    }
    expect(a.frames.slice(before[0])).toHaveLength(1);
    expect(b.frames.slice(before[1])).toEqual([
      {
        type: 'events',
        events: Array.from({ length: 100 }, (_, i) => ({
          event: 'chat:deleted',
          payload: { messageId: `burst-${i}` },
        })),
      },
    ]);
    // A lone event keeps the single-event frame.
    fx.app.events.emit('chat:deleted', { messageId: 'alone' });
    expect(await a.next('event')).toEqual({ type: 'event', event: 'chat:deleted', payload: { messageId: 'alone' } });
    expect(a.frames.at(-1)).toEqual({ type: 'event', event: 'chat:deleted', payload: { messageId: 'alone' } });
  });

  it('an event a request caused reaches the panel before that request answers', async () => {
    const s = await authorizedSocket();
    fx.app.answer('chat:history', () => {
      fx.app.events.emit('chat:deleted', { messageId: 'caused' });
      return Promise.resolve([]);
    });
    s.send({ id: 41, type: 'invoke', channel: 'chat:history', args: [] });
    expect((await s.next('result')).id).toBe(41);
    const order = s.frames.map((f) => f.type);
    expect(order.lastIndexOf('event')).toBeLessThan(order.lastIndexOf('result'));
  });

  it('pushes every event to authorized sockets only', async () => {
    const a = await authorizedSocket();
    const b = await authorizedSocket();
    const pending = socket();
    await pending.opened();
    fx.app.events.emit('kick:event', { kind: 'feed', item: feedItem });
    fx.app.events.emit('chat:deleted', { messageId: 'm1' });
    for (const s of [a, b]) {
      expect(await s.next('event')).toEqual({
        type: 'event',
        event: 'kick:event',
        payload: { kind: 'feed', item: feedItem },
      });
      expect(await s.next('event')).toEqual({ type: 'event', event: 'chat:deleted', payload: { messageId: 'm1' } });
    }
    // The unauthorized socket got nothing; once it says hello it receives only later events.
    pending.send({ type: 'hello', token: fx.server.token });
    await pending.next('ready');
    fx.app.events.emit('chat:deleted', { messageId: 'm2' });
    expect(await pending.next('event')).toMatchObject({ payload: { messageId: 'm2' } });
    expect(pending.all.filter((f) => f.type === 'event')).toHaveLength(1);
  });

  it('stops pushing to closed sockets and unsubscribes from the app on close', async () => {
    const a = await authorizedSocket();
    a.ws.close();
    await a.closed();
    await expect.poll(() => fx.server.clientCount()).toBe(0);
    fx.app.events.emit('chat:deleted', { messageId: 'm1' });
    const b = await authorizedSocket();
    await fx.server.close();
    expect(await b.closed()).toBe(PANEL_CLOSE.goingAway);
    // No listener is left behind: emitting after close reaches nobody and throws nothing.
    fx.app.events.emit('chat:deleted', { messageId: 'm3' });
    expect(b.all.filter((f) => f.type === 'event')).toEqual([]);
  });

  it('drops a client that falls too far behind instead of buffering without bound', async () => {
    await fx.server.close();
    fx.server = await startPanelServer({
      router: fx.app.router,
      events: fx.app.events,
      staticDir: fx.rendererDir,
      maxBufferedBytes: 1,
      log: (line) => fx.app.logs.push(line),
    });
    fx.origin = `http://127.0.0.1:${fx.server.port}`;
    fx.wsUrl = `ws://127.0.0.1:${fx.server.port}/ws`;
    const s = await authorizedSocket();
    // Pause reading so the server's send buffer cannot drain.
    (s.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = { kind: 'feed' as const, item: { ...feedItem, text: 'x'.repeat(64 * 1024) } };
    for (let i = 0; i < 200 && fx.server.clientCount() > 0; i++) {
      fx.app.events.emit('kick:event', big);
      await new Promise((r) => setImmediate(r));
    }
    expect(fx.server.clientCount()).toBe(0);
    expect(fx.app.logs).toContain('panel: dropping a client that fell too far behind');
  });
});
