/**
 * The stream history through the real app: the app built on a shared embedded sandbox (so a restart keeps the
 * simulated channel, its subscriptions and the sign-in), real webhooks into the app's own receiver and journal,
 * and what the sandbox itself fired, turned into the recap it must give.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { expect, vi } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp, type SharedSandbox } from '../../../electron/app/create-app';
import { startEmbeddedSandbox } from '../../../electron/app/embedded-sandbox';
import { sandboxTokenStore } from '../../../electron/app/sandbox-tokens';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { Result } from '../../../shared/errors';
import type { HistoryRecapView } from '../../../shared/history';
import type { InvokeResults } from '../../../shared/ipc-contract';
import type { KickEventPayloads } from '../../../shared/kick/events';
import type { SandboxEvent } from '../../../sandbox/state';
import { triggerEvent, type TriggerOptions } from '../../../sandbox/triggers';
import { STREAMER_USER_ID } from '../../../sandbox/world';

export interface HistoryWorld {
  dir: string;
  shared: SharedSandbox;
  app: GreenroomApp;
  logs: string[];
  /** Every event the sandbox fired, in order. */
  fired: SandboxEvent[];
}

function configFor(dir: string) {
  const settings = openSettings(dir, { randomBytes });
  settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
  const config = resolveConfig({
    env: {
      GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_TUNNEL: 'off',
    },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir: dir,
  });
  return { settings, config };
}

/** The sandbox, started once for the whole file; apps come and go on it. */
export async function startWorld(dir: string): Promise<HistoryWorld> {
  const { config } = configFor(dir);
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const embedded = await startEmbeddedSandbox(config, { clock: systemClock, log });
  const shared: SharedSandbox = { embedded, tokens: sandboxTokenStore(new MemorySecretStore(), log) };
  const world = { dir, shared, logs, fired: [] } as unknown as HistoryWorld;
  world.app = await startApp(world);
  return world;
}

/** Builds and starts an app in the world's folder, signs in (once), and waits until its history is ready. */
export async function startApp(world: HistoryWorld): Promise<GreenroomApp> {
  const { settings, config } = configFor(world.dir);
  const app = await createApp(config, {
    clock: systemClock,
    openExternal: async (url) => {
      const authorize = await request(url);
      await authorize.body.text();
      await (await request(authorize.headers.location as string)).body.text();
    },
    secretStore: new MemorySecretStore(),
    webhooks: createAppWebhookPort,
    log: (line) => world.logs.push(line),
    dataDir: world.dir,
    settings,
    sandbox: world.shared,
  });
  world.app = app;
  await app.start();
  if (!app.snapshot().account.signedIn) {
    const signedIn = await call(app, 'auth:start-login', {});
    expect(signedIn.signedIn).toBe(true);
  }
  await vi.waitFor(
    () => {
      const health = app.snapshot().health;
      expect(health.subscriptions.length).toBeGreaterThan(0);
      expect(health.subscriptions.every((s) => s.state === 'active')).toBe(true);
    },
    { timeout: 20_000, interval: 50 },
  );
  await vi.waitFor(async () => expect((await call(app, 'history:status')).state).not.toBe('starting'), {
    timeout: 20_000,
    interval: 50,
  });
  return app;
}

/** Invokes through the router as a transport would, and unwraps a success. */
export async function call<C extends keyof InvokeResults>(
  app: GreenroomApp,
  channel: C,
  ...args: unknown[]
): Promise<InvokeResults[C]> {
  const result = (await app.router.invoke(channel, args)) as Result<InvokeResults[C]>;
  if (!result.ok) {
    throw new Error(`${channel} failed: ${result.error.code}: ${result.error.message}`);
  }
  return result.value;
}

/** Fires through the sandbox's own triggers (as `npm run sandbox -- trigger` does) and keeps what it sent. */
export function fire(world: HistoryWorld, type: keyof KickEventPayloads, options: TriggerOptions = {}): SandboxEvent[] {
  const events = triggerEvent(world.shared.embedded.sandbox.ctx, type, options);
  world.fired.push(...events);
  return events;
}

type Payload<T extends keyof KickEventPayloads> = KickEventPayloads[T];
const of = <T extends keyof KickEventPayloads>(fired: SandboxEvent[], type: T): Payload<T>[] =>
  fired.filter((e) => e.type === type).map((e) => e.payload as Payload<T>);

const byName = <T extends { username: string | null }>(list: T[]): T[] =>
  [...list].sort((a, b) => (a.username ?? '').localeCompare(b.username ?? ''));

/** What a recap of the stream made of `fired` must list, from the sandbox's own record, order aside. */
export function expectedRecap(fired: SandboxEvent[]) {
  const followers = new Map<number, { userId: number; username: string }>();
  for (const p of of(fired, 'channel.followed')) {
    followers.set(p.follower.user_id!, { userId: p.follower.user_id!, username: p.follower.username! });
  }
  const subs = (type: 'channel.subscription.new' | 'channel.subscription.renewal') => {
    const out = new Map<number, { userId: number; username: string; months: number }>();
    for (const p of of(fired, type)) {
      const before = out.get(p.subscriber.user_id!)?.months ?? 0;
      out.set(p.subscriber.user_id!, {
        userId: p.subscriber.user_id!,
        username: p.subscriber.username!,
        months: Math.max(before, p.duration),
      });
    }
    return byName([...out.values()]);
  };
  const gifters = new Map<
    number | null,
    { userId: number | null; username: string | null; subs: number; gifts: number }
  >();
  for (const p of of(fired, 'channel.subscription.gifts')) {
    const id = p.gifter.is_anonymous ? null : p.gifter.user_id;
    const before = gifters.get(id) ?? {
      userId: id,
      username: id === null ? null : p.gifter.username,
      subs: 0,
      gifts: 0,
    };
    gifters.set(id, { ...before, subs: before.subs + p.giftees.length, gifts: before.gifts + 1 });
  }
  const kicks = new Map<number, { userId: number; username: string; kicks: number; gifts: number }>();
  for (const p of of(fired, 'kicks.gifted')) {
    const before = kicks.get(p.sender.user_id) ?? {
      userId: p.sender.user_id,
      username: p.sender.username,
      kicks: 0,
      gifts: 0,
    };
    kicks.set(p.sender.user_id, { ...before, kicks: before.kicks + p.gift.amount, gifts: before.gifts + 1 });
  }
  const rewards = new Map<string, Set<string>>();
  for (const p of of(fired, 'channel.reward.redemption.updated')) {
    rewards.set(p.reward.title, (rewards.get(p.reward.title) ?? new Set()).add(p.id));
  }
  const chatters = new Map<number, { userId: number; username: string; messages: number }>();
  const lines = of(fired, 'chat.message.sent');
  for (const p of lines) {
    const before = chatters.get(p.sender.user_id!) ?? {
      userId: p.sender.user_id!,
      username: p.sender.username!,
      messages: 0,
    };
    chatters.set(p.sender.user_id!, { ...before, messages: before.messages + 1 });
  }
  return {
    followers: byName([...followers.values()]),
    newSubscribers: subs('channel.subscription.new'),
    renewedSubscribers: subs('channel.subscription.renewal'),
    gifters: byName([...gifters.values()]),
    kicks: byName([...kicks.values()]),
    redemptions: [...rewards.entries()]
      .map(([reward, ids]) => ({ reward, count: ids.size }))
      .sort((a, b) => a.reward.localeCompare(b.reward)),
    chatters: byName([...chatters.values()]),
    messages: lines.length,
  };
}

/** The same shape from a recap read over the contract. */
export function recapLists(recap: HistoryRecapView) {
  const strip = <T extends { atMs?: number }>(list: T[]) => list.map(({ atMs: _atMs, ...rest }) => rest);
  return {
    followers: byName(strip(recap.followers)),
    newSubscribers: byName(strip(recap.newSubscribers)),
    renewedSubscribers: byName(strip(recap.renewedSubscribers)),
    gifters: byName(recap.gifters),
    kicks: byName(recap.kicks),
    redemptions: recap.redemptions
      .map(({ reward, count }) => ({ reward, count }))
      .sort((a, b) => a.reward.localeCompare(b.reward)),
    chatters: byName([...recap.newChatters, ...recap.returningChatters]),
    messages: recap.figures.messages,
  };
}

/** The stream the sandbox's last live status started, in ms (the history's id for it). */
export function streamIdOf(fired: SandboxEvent[]): number {
  const live = of(fired, 'livestream.status.updated').filter((p) => p.is_live);
  return Date.parse(live.at(-1)!.started_at);
}

/** Activity in the stream: a little of everything a recap lists. */
export function activity(world: HistoryWorld, scale = 1): void {
  fire(world, 'channel.followed', { count: 4 * scale });
  fire(world, 'channel.subscription.new', { count: 2 * scale });
  fire(world, 'channel.subscription.renewal', { count: 2 * scale });
  fire(world, 'channel.subscription.gifts', { count: 2 * scale });
  fire(world, 'kicks.gifted', { count: 3 * scale });
  fire(world, 'channel.reward.redemption.updated', { count: 3 * scale });
  fire(world, 'chat.message.sent', { count: 40 * scale });
}
