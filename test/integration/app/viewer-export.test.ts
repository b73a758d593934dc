/**
 * One viewer's export through the real app ([history](../../../docs/history.md#one-viewers-export)): the embedded
 * sandbox sends a hostile viewer's chat, follow, KICKs and Kick's ban of them as signed webhooks into the app's
 * receiver and journal; `history:export-viewer` over the router gives every line, the ban with who and why, the
 * note, in a CSV that runs nothing and under a file name that is only the name's safe characters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSqlite, SQLITE_MISSING } from '../../../electron/history/sqlite-driver';
import type { ViewerExport } from '../../../electron/history/viewer-export';
import { call, fire, type HistoryWorld, startWorld } from './history-app-fixtures';
import { csvRows } from '../../helpers/csv-rows';

const hasSqlite = loadSqlite() !== null;
if (!hasSqlite) {
  console.info(`a viewer's export through the app: ${SQLITE_MISSING}; this runs in the Node 24 pass`);
}
const WAIT = { timeout: 60_000, interval: 100 };

let world: HistoryWorld;

beforeAll(async () => {
  if (hasSqlite) {
    world = await startWorld(mkdtempSync(join(tmpdir(), 'greenroom-viewer-export-')));
  }
}, 60_000);

afterAll(async () => {
  await world?.app.stop();
  await world?.shared.embedded.close();
  if (world) {
    rmSync(world.dir, { recursive: true, force: true });
  }
});

/** The sandbox's own record of what it sent as one viewer, named `username`; returns their user id. */
async function viewerSays(username: string, lines: string[]): Promise<number> {
  const userId = 900_000 + Math.floor(Math.random() * 90_000);
  const user = { user_id: userId, username };
  for (const content of lines) {
    fire(world, 'chat.message.sent', { overrides: { sender: user, content } });
  }
  fire(world, 'channel.followed', { overrides: { follower: user } });
  fire(world, 'kicks.gifted', { overrides: { sender: user, gift: { amount: 250, message: '@everyone =1+1' } } });
  fire(world, 'moderation.banned', {
    overrides: { banned_user: user, metadata: { reason: '=HYPERLINK("http://evil")', expires_at: null } },
  });
  await vi.waitFor(async () => {
    const story = await call(world.app, 'history:viewer', { userId });
    expect(story?.messages).toBe(lines.length);
    expect(story?.kicks).toBe(250);
    expect(story?.moderation).toHaveLength(1);
  }, WAIT);
  return userId;
}

const FORMULA = /^[\s\p{Cc}\p{Cf}]*[=+\-@\uff1d\uff0b\uff0d\uff20]/u;

describe.runIf(hasSqlite)("one viewer's export through the app", () => {
  const lines = ['hello', '=cmd|"/c calc"!A0', '+1, "agreed"\nsecond line', '@here', '-', 'plain'];

  it.each([
    ['../../etc/passwd', /^greenroom-viewer-etc_passwd-\d+-\d{4}-\d\d-\d\d-\d{4}\.csv$/],
    ['a\u0000b"c,d\ne', /^greenroom-viewer-a_b_c_d_e-\d+-/],
    ['x'.repeat(300), /^greenroom-viewer-x{40}-\d+-/],
    ['=SUM(A1:A9)', /^greenroom-viewer-SUM_A1_A9-\d+-/],
  ])('exports %j with every line, the ban and the note, safely', { timeout: 90_000 }, async (name, fileName) => {
    const userId = await viewerSays(name, lines);
    await call(world.app, 'mod:set-note', { userId, note: '=warned twice' });
    const csv = await call(world.app, 'history:export-viewer', { userId, format: 'csv' });
    expect(csv.fileName).toMatch(fileName);
    expect(csv.fileName).not.toMatch(/[/\\\0"\n,]|\.\./);
    expect(csv.mimeType).toMatch(/^text\/csv/);
    const rows = csvRows(csv.text);
    expect(rows.every((r) => r.length === rows[0]!.length)).toBe(true);
    // At the top, which chat lines the file holds: here all of them.
    expect(rows[1]).toEqual(['viewer', '', 'chat_lines', '', '', '', `all ${lines.length} chat lines`]);
    // Nothing a spreadsheet would run: every text cell that starts like a formula is shown as text.
    for (const cell of rows.flat()) {
      expect(FORMULA.test(cell) && !/^-?\d/.test(cell), `cell ${JSON.stringify(cell)}`).toBe(false);
    }
    const unquote = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);
    expect(rows.filter((r) => r[0] === 'chat').map((r) => unquote(r[6]!))).toEqual(lines);
    expect(unquote(rows.find((r) => r[2] === 'name')![6]!)).toBe(name);
    expect(unquote(rows.find((r) => r[2] === 'note')![6]!)).toBe('=warned twice');
    const ban = rows.find((r) => r[0] === 'moderation_kick')!;
    expect([ban[2], unquote(ban[6]!)]).toEqual(['ban', '=HYPERLINK("http://evil")']);
    expect(ban[4]).not.toBe('');
    // In time order, and both were sent within the same second: a follow is dated by its webhook's send time to
    // the second, so which of the two comes first is not the sandbox's to say.
    expect(
      rows
        .filter((r) => r[0] === 'event')
        .map((r) => r[2])
        .sort(),
    ).toEqual(['followed', 'sent KICKs']);

    const json = await call(world.app, 'history:export-viewer', { userId, format: 'json' });
    expect(json.fileName).toBe(csv.fileName.replace(/\.csv$/, '.json'));
    const data = JSON.parse(json.text) as ViewerExport;
    expect(data.viewer).toMatchObject({ userId, username: name, messages: lines.length, kicks: 250 });
    expect(data.chat.map((c) => c.text)).toEqual(lines);
    expect(data).toMatchObject({ chatInFile: `all ${lines.length} chat lines`, chatLinesKept: lines.length });
    expect(data.note).toBe('=warned twice');
    expect(data.moderation).toEqual([expect.objectContaining({ source: 'kick', what: 'ban' })]);
  });

  it('says plainly when the history never saw the viewer, and changes nothing', async () => {
    const result = await world.app.router.invoke('history:export-viewer', [{ userId: 987_654_321, format: 'csv' }]);
    expect(result).toMatchObject({ ok: false, error: { code: 'NotFound' } });
  });

  it.each([
    [{ userId: 0, format: 'csv' }, 'userId'],
    [{ userId: 1.5, format: 'csv' }, 'userId'],
    [{ userId: 7, format: '../x.csv' }, 'format'],
    [{ userId: 7, format: 'xlsx' }, 'format'],
    [{ userId: 7, format: 'csv', path: '/etc/passwd' }, 'path'],
  ])('refuses %j at the field', async (arg, field) => {
    const result = await world.app.router.invoke('history:export-viewer', [arg]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('InvalidArgument');
    expect(!result.ok && result.error.message).toContain(field);
  });
});
