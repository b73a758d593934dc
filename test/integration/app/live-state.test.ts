/**
 * Main's one live status (../../../docs/chat-bot.md#live-status-comes-from-kick) on the real Kick client, over
 * HTTP to the sandbox, through the app's channel operations: Kick's answer wins over the journal, a panel's
 * read is an ask like any other, and when Kick cannot be reached (a proxy in front of the sandbox's API that
 * drops every connection) what was known stays until Kick answers again.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppChannelOps } from '../../../electron/app/app-channel';
import { LiveState } from '../../../electron/app/live-state';
import type { Kick } from '../../../electron/kick/create-kick';
import type { KickEvent } from '../../../electron/webhooks/events/types';
import { defaultRng } from '../../../sandbox/admin/random';
import { setChannelLive } from '../../../sandbox/admin/generate-stream';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

/**
 * A TCP proxy to `target` that can be switched off: then the connections it holds (the client's keep-alive
 * pool) are cut, and every new one is dropped at once.
 */
async function switchableProxy(
  target: URL,
): Promise<{ url: string; switchTo(up: boolean): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let up = true;
  const proxy = {
    url: '',
    switchTo: (next: boolean) => {
      up = next;
      if (!up) {
        sockets.forEach((s) => s.destroy());
      }
    },
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((socket) => {
    if (!up) {
      socket.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => {
    sockets.forEach((s) => s.destroy());
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return proxy;
}

/** The journal's last word at start: the stream went live an hour ago. */
const journalLive = (atMs: number): KickEvent =>
  ({
    kind: 'known',
    type: 'livestream.status.updated',
    version: 1,
    messageId: 'journal-live',
    subscriptionId: 's',
    timestamp: '',
    receivedAtMs: atMs,
    payload: {
      broadcaster: { user_id: STREAMER_USER_ID },
      is_live: true,
      title: 'Yesterday',
      started_at: new Date(atMs).toISOString(),
      ended_at: null,
    },
  }) as unknown as KickEvent;

let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof switchableProxy>>;
let kick: Kick;
let channel: AppChannelOps;
let live: LiveState;
const logs: string[] = [];
const pushed: { is_live: boolean | undefined; signedIn: boolean | undefined }[] = [];
const retries: (() => void)[] = [];
const setLive = (isLive: boolean) =>
  setChannelLive(sandbox.ctx.state, sandbox.ctx.state.channels.get(STREAMER_USER_ID)!, isLive, defaultRng);

beforeAll(async () => {
  sandbox = await startSandbox({ autoApproveUserId: STREAMER_USER_ID });
  proxy = await switchableProxy(new URL(sandbox.describe().apiUrl));
  kick = kickOnSandbox(sandbox, {
    apiUrl: proxy.url,
    openExternal: createTestBrowser(sandbox).open,
    sleep: () => Promise.resolve(),
  });
  await kick.signIn();
  live = new LiveState({
    read: () => channel.readChannel(),
    broadcasterUserId: () => STREAMER_USER_ID,
    now: () => Date.now(),
    setTimer: (fn) => {
      retries.push(fn);
      return { cancel: () => retries.splice(retries.indexOf(fn), 1) };
    },
    log: (line) => logs.push(line),
  });
  live.onChange((view) => pushed.push({ is_live: view?.stream.is_live, signedIn: view?.signedIn }));
  channel = new AppChannelOps(
    {
      client: kick.client,
      managedRewards: { has: () => false, add: () => undefined, remove: () => undefined },
      broadcasterUserId: () => STREAMER_USER_ID,
      onRedemptionsDecided: () => undefined,
      log: (line) => logs.push(line),
    },
    live,
  );
});

afterAll(async () => {
  live?.stop();
  await kick?.close();
  await proxy?.close();
  await sandbox?.close();
});

describe('live status from Kick', () => {
  it('believes Kick, not the journal, after a restart while offline', async () => {
    setLive(false);
    live.onEvent(journalLive(Date.now() - 3_600_000), false);
    expect(live.facts()).toMatchObject({ live: true, confirmed: false });
    live.refresh();
    await live.settled();
    expect(live.facts()).toMatchObject({ live: false, confirmed: true });
    expect(live.isLive()).toBe(false);
    expect(pushed.at(-1)).toEqual({ is_live: false, signedIn: true });
    expect(live.view()?.stream).not.toHaveProperty('key');
  });

  it('takes a panel read as an ask: the stream went live on Kick', async () => {
    setLive(true);
    const view = await channel.streamInfo();
    expect(view).toMatchObject({ broadcaster_user_id: STREAMER_USER_ID, stream: { is_live: true }, signedIn: true });
    expect(live.isLive()).toBe(true);
    expect(live.facts().startedAtMs).toBe(sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.startedAtMs);
  });

  it('keeps what it knew while Kick cannot be reached, and takes its answer once it can', async () => {
    proxy.switchTo(false);
    setLive(false);
    live.refresh();
    await live.settled();
    expect(live.isLive()).toBe(true); // as it was: no answer is not "offline"
    expect(logs.filter((line) => line.startsWith('live status: could not ask Kick (Network:'))).toHaveLength(1);
    expect(retries).toHaveLength(1);
    proxy.switchTo(true);
    retries.shift()!();
    await live.settled();
    expect(live.facts()).toMatchObject({ live: false, confirmed: true });
    expect(retries).toHaveLength(0);
  });
});
