/**
 * An ad break across a restart, in the whole app on the embedded sandbox (real journal): the break Kick accepted
 * from Greenroom is journaled once, and at the next start it is read back into nothing, never shown in the
 * activity feed as an event Greenroom cannot read ([the recap](../../../docs/history.md#the-recap)).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import type { FeedItem } from '../../../shared/views';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { callAdmin } from '../../helpers/sandbox';
import { type AutomodApp, call } from './automod-fixtures';
import { startLiveApp } from './live-merge-fixtures';

let fx: AutomodApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-ad-breaks-restart-'));
  fx = await startLiveApp(dir, 0);
}, 30_000);

afterAll(async () => {
  await fx?.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const unreadable = async (): Promise<FeedItem[]> =>
  (await call(fx.app, 'feed:history')).filter((item) => item.kind === 'unknown');

it('journals the ad break once and restores it as nothing at the next start', async () => {
  await call(fx.app, 'ads:enroll');
  const live = await callAdmin(fx.app.sandbox!, 'POST', `/channels/${STREAMER_USER_ID}/live`, {
    body: { is_live: true },
  });
  expect(live.status, live.text).toBe(200);
  const started = await call(fx.app, 'ads:run', { seconds: 7 });
  await fx.app.stop();

  const journal = await createFileJournal({ dir: join(dir, 'journal') });
  const records = (await journal.readAll()).filter((r) => r.type === 'greenroom.ad-break');
  await journal.close();
  expect(records.map((r) => (JSON.parse(r.body) as { ad_break: unknown }).ad_break)).toEqual([
    { id: started.id, seconds: 7, at_ms: expect.any(Number) },
  ]);

  fx = await startLiveApp(dir, 0);
  expect(await unreadable()).toEqual([]);
}, 60_000);
