import { describe, expect, it } from 'vitest';
import { AppState } from '../../../../../renderer/src/lib/state/app.svelte';
import type { ConnectionStatus } from '../../../../../renderer/src/lib/transport';
import { createFakeApi, manualClock, manualFrames, settle } from '../../fake-api';
import { account, feedItem, health, message, modAction, settings, snapshot } from '../../fixtures';

function setup() {
  const fake = createFakeApi();
  const frames = manualFrames();
  let listener: ((s: ConnectionStatus) => void) | null = null;
  const connection = {
    status: 'open' as ConnectionStatus,
    onStatus(l: (s: ConnectionStatus) => void) {
      listener = l;
      return () => {
        listener = null;
      };
    },
  };
  const app = new AppState(fake.api, { scheduler: frames.scheduler, clock: manualClock(), connection });
  return { fake, frames, app, setStatus: (s: ConnectionStatus) => listener?.(s), hasListener: () => listener !== null };
}

describe('AppState', () => {
  it('routes every pushed event to its state and unsubscribes all of them', async () => {
    const { fake, frames, app, hasListener } = setup();
    const off = app.connect();
    await app.start();
    fake.emit('kick:event', { kind: 'chat', message: message({ messageId: 'c1' }) });
    frames.run();
    expect(app.chat.messages.map((m) => m.messageId)).toEqual(['c1']);
    fake.emit('kick:event', { kind: 'feed', item: feedItem({ id: 'f1' }) });
    expect(app.feed.items.map((i) => i.id)).toEqual(['f1']);
    fake.emit('chat:deleted', { messageId: 'c1' });
    expect(app.chat.messages[0]!.deleted).toBe(true);
    fake.emit('mod:action', modAction({ id: 'm1' }));
    expect(app.mod.log.map((a) => a.id)).toEqual(['m1']);
    fake.emit('session:changed', account({ accountLabel: 'renamed' }));
    expect(app.session.account.accountLabel).toBe('renamed');
    fake.emit('health:changed', health({ counters: { accepted: 7, duplicates: 0, rejected: 0 } }));
    expect(app.health.health?.counters.accepted).toBe(7);
    fake.emit('settings:changed', settings({ chatScrollback: 200 }));
    expect(app.chat.limit).toBe(200);
    off();
    for (const e of [
      'kick:event',
      'chat:deleted',
      'mod:action',
      'session:changed',
      'health:changed',
      'settings:changed',
    ] as const) {
      expect(fake.listeners(e)).toBe(0);
    }
    expect(hasListener()).toBe(false);
  });

  it('restores histories at start and opens the setup guide on first run', async () => {
    const { fake, app } = setup();
    fake.ok('app:snapshot', snapshot({ mode: 'sandbox', settings: settings({ setupGuideDone: false }) }));
    await app.start();
    expect(app.started).toBe(true);
    expect(app.wizard.open).toBe(true);
    for (const c of ['chat:history', 'feed:history', 'mod:log', 'redemptions:list', 'stream:info'] as const) {
      expect(fake.argsOf(c)).toHaveLength(1);
    }
  });

  it('reloads after the connection comes back from a drop', async () => {
    const { fake, app, setStatus } = setup();
    app.connect();
    await app.start();
    setStatus('reconnecting');
    expect(app.connection.message).toMatch(/reconnecting/);
    setStatus('open');
    await settle();
    expect(app.connection.message).toBeNull();
    expect(fake.argsOf('app:snapshot')).toHaveLength(2);
    expect(fake.argsOf('chat:history')).toHaveLength(2);
    setStatus('unauthorized');
    expect(app.connection.message).toMatch(/dock URL/);
  });

  it('tells every onReconnect listener when the link comes back after a drop, until it unsubscribes', () => {
    const { app, setStatus } = setup();
    app.connect();
    let heard = 0;
    const off = app.connection.onReconnect(() => heard++);
    setStatus('open');
    expect(heard).toBe(0);
    setStatus('reconnecting');
    setStatus('open');
    expect(heard).toBe(1);
    off();
    setStatus('reconnecting');
    setStatus('open');
    expect(heard).toBe(1);
  });

  it('reset clears everything', async () => {
    const { app } = setup();
    await app.start();
    app.reset();
    expect(app.started).toBe(false);
    expect(app.session.snapshot).toBeNull();
  });
});
