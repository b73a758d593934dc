/**
 * Hostile words in the stream history, through the real app: names sent in signed webhooks by the embedded
 * sandbox, read back over the router as the panel reads them
 * ([history](../../../docs/history.md#export-and-the-thank-you-list)), and hostile searches
 * ([history](../../../docs/history.md#finding-a-viewer)).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSqlite, SQLITE_MISSING } from '../../../electron/history/sqlite-driver';
import { call, fire, type HistoryWorld, startWorld, streamIdOf } from './history-app-fixtures';

const hasSqlite = loadSqlite() !== null;
if (!hasSqlite) {
  console.info(`hostile words in the history: ${SQLITE_MISSING}; this runs in the Node 24 pass`);
}
const WAIT = { timeout: 30_000, interval: 100 };

let world: HistoryWorld;
let streamId: number;

beforeAll(async () => {
  if (hasSqlite) {
    world = await startWorld(mkdtempSync(join(tmpdir(), 'greenroom-history-words-')));
    streamId = streamIdOf(fire(world, 'livestream.status.updated', { overrides: { is_live: true } }));
    await vi.waitFor(async () => expect((await call(world.app, 'history:status')).liveStreamId).toBe(streamId), WAIT);
  }
}, 60_000);

afterAll(async () => {
  await world?.app.stop();
  await world?.shared.embedded.close();
  if (world) {
    rmSync(world.dir, { recursive: true, force: true });
  }
});

/** Follows from these names, then the recap's thank-you list once every one of them is in it. */
async function thankYouAfterFollows(names: string[]): Promise<string> {
  for (const username of names) {
    fire(world, 'channel.followed', { overrides: { follower: { username } } });
  }
  let text = '';
  await vi.waitFor(async () => {
    const recap = await call(world.app, 'history:recap', { streamId });
    expect(recap.followers.map((f) => f.username)).toEqual(expect.arrayContaining(names));
    text = recap.thankYou;
  }, WAIT);
  return text;
}

/** Every way a text can break a line: what a chat box, a post or an editor may start a new line at. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

describe.runIf(hasSqlite)('the thank-you list', () => {
  it('a name with a line or paragraph separator cannot forge a line of its own', async () => {
    const names = ['\u2028', '\u2029', '\u0085', '\v', '\r'].map((sep, i) => `bob${i}${sep}Gifted subs: mallory (500)`);
    const text = await thankYouAfterFollows(names);
    const lines = text.split(LINE_BREAKS);
    expect(lines.filter((l) => l.startsWith('Gifted subs'))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('New followers'))).toHaveLength(1);
    expect(text).toContain('bob0 Gifted subs: mallory (500)');
  });

  it('a name with a bidirectional control cannot reorder the rest of its line', async () => {
    const controls = ['\u202E', '\u202B', '\u2067', '\u2066', '\u2068', '\u200F', '\u200E', '\u061C', '\u2069'];
    const names = controls.map((c, i) => `${c}eve${i}`);
    const text = await thankYouAfterFollows(names);
    expect(text).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    for (let i = 0; i < controls.length; i++) {
      expect(text).toContain(`eve${i}`);
    }
  });
});

const names = async (query: string) => (await call(world.app, 'history:search', { query })).map((h) => h.username);

describe.runIf(hasSqlite)('finding a viewer', () => {
  beforeAll(async () => {
    for (const username of ['ÉLODIE', 'ＱＵＩＮＮＸ', 'QuinnX', 'anna_z', 'zeta_z']) {
      fire(world, 'channel.followed', { overrides: { follower: { username } } });
    }
    await vi.waitFor(async () => expect(await names('zeta_z')).toEqual(['zeta_z']), WAIT);
  }, 60_000);

  it('a control character in the query is refused at the field, never cuts the pattern short', async () => {
    for (const query of ['a\u0000zzzz', 'zeta\u0000', 'a\u0007z', 'an\u001b[0mna', 'a\tz', 'a\u007fz', 'a\u0085z']) {
      const result = await world.app.router.invoke('history:search', [{ query }]);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.message).toMatch(/query: .*no control characters/);
    }
  });

  it('a name in any case is found, whatever its letters', async () => {
    expect(await names('élo')).toEqual(['ÉLODIE']);
    expect(await names('ÉLOD')).toEqual(['ÉLODIE']);
    expect(await names('Élodie')).toEqual(['ÉLODIE']);
    expect((await names('quinnx')).sort()).toEqual(['QuinnX', 'ＱＵＩＮＮＸ']);
    expect((await names('ＱＵＩＮＮＸ')).sort()).toEqual(['QuinnX', 'ＱＵＩＮＮＸ']);
    expect(await names('%')).toEqual([]);
    expect(await names('na_z')).toEqual(['anna_z']);
    expect(await names('n_z')).toEqual([]);
  });
});
