/**
 * The WebhookPort contract: one suite that the real port (receiver + file journal, signed deliveries) and
 * every test fake of it must pass, so a fake cannot promise what the real side does not do, and the other
 * way round. The order of start-up is part of the contract: history comes from `restore()`, and `start()`
 * is only reachable through what it resolves with.
 *
 * A subject builds instances on a data dir (a new instance is what a restart is) and makes a started one
 * accept a chat message the way its source delivers it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { RestoredWebhooks, WebhookPort } from '../../electron/app/webhook-port';
import type { KickEvent } from '../../electron/webhooks/events/types';

export interface WebhookPortSubject {
  /** A new instance on `dataDir`, as the app builds one at each start. */
  create(dataDir: string): WebhookPort | Promise<WebhookPort>;
  /**
   * Makes a started instance accept one chat message with this content, the way its source delivers it;
   * resolves once it is acknowledged (for the real port: answered 200, so journaled).
   */
  deliverChat(port: WebhookPort, content: string): Promise<void>;
  /** Called once after the suite (a shared sandbox, a key server). */
  close?(): Promise<void>;
}

/** The chat content of an event, or null for anything else. */
function contentOf(event: KickEvent): string | null {
  return event.kind === 'known' && event.type === 'chat.message.sent' ? event.payload.content : null;
}

/** Registers the contract's tests for `subject` under `name`. */
export function describeWebhookPortContract(name: string, makeSubject: () => Promise<WebhookPortSubject>): void {
  describe(`WebhookPort contract: ${name}`, () => {
    let subject: WebhookPortSubject;
    let dataDir: string;
    const open: WebhookPort[] = [];

    /** A new instance on the suite's data dir, stopped after the test. */
    async function instance(): Promise<WebhookPort> {
      const port = await subject.create(dataDir);
      open.push(port);
      return port;
    }

    /** Restores, starts and collects what the bus publishes. */
    async function started(): Promise<{ port: WebhookPort; restored: RestoredWebhooks; live: KickEvent[] }> {
      const port = await instance();
      const live: KickEvent[] = [];
      port.bus.onAny((event) => void live.push(event));
      const restored = await port.restore();
      await restored.start();
      return { port, restored, live };
    }

    beforeEach(async () => {
      subject ??= await makeSubject();
      dataDir = mkdtempSync(join(tmpdir(), 'greenroom-port-contract-'));
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((port) => port.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    });
    afterAll(async () => {
      await subject?.close?.();
    });

    it('has no way to start or read history except through restore()', async () => {
      expectTypeOf<WebhookPort>().not.toHaveProperty('start');
      expectTypeOf<WebhookPort>().not.toHaveProperty('history');
      expectTypeOf<Awaited<ReturnType<WebhookPort['restore']>>>().toHaveProperty('start');
      const port = await instance();
      expect('start' in port).toBe(false);
      expect('history' in port).toBe(false);
    });

    it('restores nothing on a fresh data dir, then publishes what it accepts live, in order', async () => {
      const { port, restored, live } = await started();
      expect(restored.events).toEqual([]);
      await subject.deliverChat(port, 'first');
      await subject.deliverChat(port, 'second');
      expect(live.map(contentOf)).toEqual(['first', 'second']);
      expect(port.health().counters.accepted).toBe(2);
    });

    it('events accepted before a restart are returned by restore() of a new instance on the same data dir', async () => {
      const before = await started();
      await subject.deliverChat(before.port, 'before the restart');
      await subject.deliverChat(before.port, 'also before');
      await before.port.stop();

      const after = await instance();
      const live: KickEvent[] = [];
      after.bus.onAny((event) => void live.push(event));
      const restored = await after.restore();
      expect(restored.events.map(contentOf)).toEqual(['before the restart', 'also before']);
      // Restored events are history, not news: the bus does not replay them.
      await restored.start();
      expect(live).toEqual([]);
      await subject.deliverChat(after, 'after the restart');
      expect(live.map(contentOf)).toEqual(['after the restart']);
    });

    it('restore() resolves with the same events when called again, and start() starts once', async () => {
      const first = await started();
      await subject.deliverChat(first.port, 'kept');
      await first.port.stop();

      const port = await instance();
      const one = await port.restore();
      const two = await port.restore();
      expect(two.events.map(contentOf)).toEqual(one.events.map(contentOf));
      await Promise.all([one.start(), two.start(), one.start()]);
      await subject.deliverChat(port, 'still one receiver');
      expect(port.health().counters.accepted).toBe(1);
    });

    it('stop() is safe before restore(), between restore() and start(), and twice', async () => {
      const never = await instance();
      await never.stop();
      const restoredOnly = await instance();
      await restoredOnly.restore();
      await restoredOnly.stop();
      await restoredOnly.stop();
      const again = await instance();
      expect((await again.restore()).events).toEqual([]);
    });

    it('health() reports the local receiver once started, and onHealthChange unsubscribes', async () => {
      const port = await instance();
      expect(port.health().receiver).toEqual({ port: null, url: null });
      let calls = 0;
      const unsubscribe = port.onHealthChange(() => void calls++);
      unsubscribe();
      await (await port.restore()).start();
      const { receiver } = port.health();
      expect(receiver.port === null).toBe(receiver.url === null);
      if (receiver.url !== null) {
        expect(receiver.url).toBe(`http://127.0.0.1:${receiver.port}/kick/webhook`);
      }
      expect(calls).toBe(0);
    });
  });
}
