import { describe, expect, it } from 'vitest';
import {
  FILE_NAME_NAME_MAX,
  viewerExport,
  viewerExportCsv,
  viewerExportFileName,
  type ViewerExportInput,
} from '../../../../electron/history/viewer-export';
import type { ModAction } from '../../../../shared/views';
import { csvRows } from '../../../helpers/csv-rows';

const T = Date.parse('2026-11-20T18:00:00Z');
const AT = Date.parse('2026-11-27T13:40:00Z');

function input(over: Partial<ViewerExportInput> = {}): ViewerExportInput {
  return {
    story: {
      userId: 42,
      username: 'troll',
      firstSeenMs: T,
      lastSeenMs: T + 3_600_000,
      messages: 3,
      followedAtMs: T + 60_000,
      subMonths: 2,
      giftedSubs: 5,
      kicks: 100,
      streams: 1,
      moderation: [],
      historySinceMs: T - 1_000,
    },
    chat: [
      { key: 'c1', atMs: T, streamId: T, userId: 42, username: 'troll', content: 'hello' },
      { key: 'c2', atMs: T + 1, streamId: T, userId: 42, username: 'troll', content: '=HYPERLINK("http://x","y")' },
      { key: 'c3', atMs: T + 2, streamId: null, userId: 42, username: 'troll', content: 'a, "quoted"\nline' },
    ],
    events: [
      ev('channel.followed', T + 60_000, null, null),
      ev('channel.subscription.new', T + 70_000, 2, null),
      ev('channel.subscription.gifts', T + 80_000, 5, { giftees: ['a', 'b'] }),
      ev('kicks.gifted', T + 90_000, 100, { name: 'Rage Quit', message: '+1 gg' }),
      ev('channel.reward.redemption.updated', T + 95_000, 50, { reward: '@Hydrate', status: 'accepted' }),
      ev('moderation.banned', T + 100_000, null, {
        moderator: 'mod_ana',
        reason: 'spam',
        expiresAt: new Date(T + 700_000).toISOString(),
      }),
      ev('moderation.banned', T + 200_000, null, { moderator: 'streamer', reason: null, expiresAt: null }),
    ],
    modLog: [
      action({ kind: 'delete', atMs: T + 99_000, reason: 'links' }),
      action({
        kind: 'timeout',
        atMs: T + 99_500,
        minutes: 10,
        auto: { rule: 'link', reason: 'a link', content: 'x' },
      }),
      action({ kind: 'ban', atMs: T + 99_600, ok: false }),
      action({ kind: 'ban', atMs: T + 99_700, targetUserId: 7 }),
      action({ kind: 'ban', atMs: T + 200_001, elsewhere: { moderator: 'streamer' } }),
      action({ kind: 'unban', atMs: T + 300_000, elsewhere: { moderator: 'mod_ana' } }),
    ],
    note: '-2 warnings already',
    chatDays: 90,
    exportedAtMs: AT,
    ...over,
  };
}

function ev(type: string, atMs: number, amount: number | null, detail: Record<string, unknown> | null) {
  return {
    key: `${type}:${atMs}`,
    type,
    atMs,
    streamId: T,
    userId: 42,
    username: 'troll',
    amount,
    detail: detail && JSON.stringify(detail),
  };
}

function action(over: Partial<ModAction>): ModAction {
  return { id: String(over.atMs), kind: 'ban', atMs: T, targetUserId: 42, targetUsername: 'troll', ok: true, ...over };
}

describe("one viewer's export", () => {
  it('keeps every chat line, each moderation action once with who and why, the support, the counts and the note', () => {
    const data = viewerExport(input());
    expect(data.chat.map((c) => c.text)).toEqual(['hello', '=HYPERLINK("http://x","y")', 'a, "quoted"\nline']);
    expect(data.moderation.map((m) => [m.source, m.what, m.by, m.reason])).toEqual([
      ['greenroom', 'message deleted', 'through Greenroom', 'links'],
      ['greenroom', 'timeout', 'auto-moderation (link)', 'a link'],
      ['kick', 'timeout', 'mod_ana', 'spam'],
      ['kick', 'ban', 'streamer', null],
      ['greenroom', 'unban', 'mod_ana', null],
    ]);
    expect(data.events.map((e) => [e.what, e.amount, e.text])).toEqual([
      ['followed', null, null],
      ['subscribed', 2, null],
      ['gifted subs', 5, 'a, b'],
      ['sent KICKs', 100, 'Rage Quit — +1 gg'],
      ['redeemed', 50, '@Hydrate — accepted'],
    ]);
    expect(data.viewer).toMatchObject({ userId: 42, firstSeenMs: T, messages: 3, followedAtMs: T + 60_000 });
    expect(data).toMatchObject({
      note: '-2 warnings already',
      chatKeptDays: 90,
      exportedAt: new Date(AT).toISOString(),
    });
  });

  it('writes a CSV whose every cell reads back as written, with nothing a spreadsheet would run', () => {
    const rows = csvRows(viewerExportCsv(input()));
    expect(rows[0]).toEqual(['section', 'time', 'what', 'amount', 'by', 'stream', 'text']);
    expect(rows.every((r) => r.length === 7)).toBe(true);
    const chat = rows.filter((r) => r[0] === 'chat').map((r) => r[6]);
    expect(chat).toEqual(['hello', `'=HYPERLINK("http://x","y")`, 'a, "quoted"\nline']);
    expect(rows.find((r) => r[2] === 'note')?.[6]).toBe("'-2 warnings already");
    expect(rows.filter((r) => r[0] === 'event').map((r) => r[6])).toContain("'@Hydrate — accepted");
    expect(rows.filter((r) => r[0] === 'moderation_kick').map((r) => [r[2], r[4], r[6]])).toEqual([
      [`timeout until ${new Date(T + 700_000).toISOString()}`, 'mod_ana', 'spam'],
      ['ban', 'streamer', ''],
    ]);
    expect(rows.find((r) => r[2] === 'chat_lines_in_this_file')?.[3]).toBe('3');
  });

  it('names the viewer as a name, never as a formula, in the CSV', () => {
    const rows = csvRows(viewerExportCsv(input({ story: { ...input().story, username: '=cmd|"/c calc"!A0' } })));
    expect(rows.find((r) => r[2] === 'name')?.[6]).toBe('\'=cmd|"/c calc"!A0');
  });
});

describe("the viewer export's file name", () => {
  const name = (username: string) => viewerExportFileName(username, 42, AT, 'csv');

  it('is the viewer, their id and the time', () => {
    expect(name('Troll_99')).toBe('greenroom-viewer-Troll_99-42-2026-11-27-1340.csv');
    expect(viewerExportFileName('x', 7, AT, 'json')).toMatch(/-7-2026-11-27-1340\.json$/);
  });

  it.each([
    ['../../etc/passwd', 'greenroom-viewer-etc_passwd-42-2026-11-27-1340.csv'],
    ['..\\..\\Windows\\evil', 'greenroom-viewer-Windows_evil-42-2026-11-27-1340.csv'],
    ['a\u0000b', 'greenroom-viewer-a_b-42-2026-11-27-1340.csv'],
    ['"quoted",comma\nnewline', 'greenroom-viewer-quoted_comma_newline-42-2026-11-27-1340.csv'],
    ['=cmd', 'greenroom-viewer-cmd-42-2026-11-27-1340.csv'],
    ['evil\u202Eslx.exe', 'greenroom-viewer-evil_slx_exe-42-2026-11-27-1340.csv'],
    ['...', 'greenroom-viewer-viewer-42-2026-11-27-1340.csv'],
    ['', 'greenroom-viewer-viewer-42-2026-11-27-1340.csv'],
    ['ｆｕｌｌ', 'greenroom-viewer-full-42-2026-11-27-1340.csv'],
  ])('makes %j safe', (username, fileName) => {
    expect(name(username)).toBe(fileName);
  });

  it('cuts a 300-character name to a length every system takes', () => {
    const fileName = name('a'.repeat(300));
    expect(fileName).toBe(`greenroom-viewer-${'a'.repeat(FILE_NAME_NAME_MAX)}-42-2026-11-27-1340.csv`);
    expect(Buffer.byteLength(fileName)).toBeLessThan(100);
    expect(name(`${'b'.repeat(FILE_NAME_NAME_MAX - 1)}/x`)).toMatch(/^greenroom-viewer-b{39}-42-/);
  });

  it('keeps only letters, digits, _ and - whatever the name', () => {
    const hostile = Array.from({ length: 0x250 }, (_, i) => String.fromCharCode(i)).join('');
    expect(name(hostile)).toMatch(/^greenroom-viewer-[A-Za-z0-9_-]+-42-2026-11-27-1340\.csv$/);
  });
});
