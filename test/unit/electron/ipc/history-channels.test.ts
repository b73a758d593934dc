import { describe, expect, it } from 'vitest';
import { createHandlers, type HandlerDeps } from '../../../../electron/ipc/handlers';
import { createRouter } from '../../../../electron/ipc/router';
import { unavailableHistory } from '../../../../electron/history/history-port';
import { HISTORY_SEARCH_MAX } from '../../../../shared/history';

/** The router over the real handlers, with only the history in its deps (absent: the app without one). */
function routerWith(history?: HandlerDeps['history']) {
  const deps = { history, log: () => undefined } as unknown as HandlerDeps;
  return createRouter({ handlers: createHandlers(deps), log: () => undefined });
}

describe('the history channels without a history', () => {
  it('says so in the status, in the streamer words', async () => {
    const result = await routerWith().invoke('history:status', []);
    expect(result).toMatchObject({ ok: true, value: { state: 'unavailable', liveStreamId: null } });
    expect(result.ok && result.value).toHaveProperty(
      'message',
      expect.stringMatching(/the stream history could not start/),
    );
  });

  it.each([
    ['history:streams', []],
    ['history:recap', [{ streamId: 1_700_000_000_000 }]],
    ['history:viewer', [{ userId: 7 }]],
    ['history:search', [{ query: 'ann' }]],
    ['history:export-recap', [{ streamId: 1, format: 'csv' }]],
    ['history:export-viewer', [{ userId: 7, format: 'csv' }]],
  ] as const)('answers %s with HistoryUnavailable, not an internal error', async (channel, args) => {
    const result = await routerWith(unavailableHistory('No history here.', 'node:sqlite missing')).invoke(channel, [
      ...args,
    ]);
    expect(result).toEqual({
      ok: false,
      error: { code: 'HistoryUnavailable', message: 'No history here. (node:sqlite missing)' },
    });
  });
});

describe('the history channels refuse bad arguments at the field', () => {
  it.each([
    ['a negative stream', 'history:recap', { streamId: -1 }, 'streamId'],
    ['a fractional stream', 'history:recap', { streamId: 1.5 }, 'streamId'],
    ['a stream beyond safe integers', 'history:export-recap', { streamId: 2 ** 60, format: 'csv' }, 'streamId'],
    ['a stream past the last date', 'history:recap', { streamId: 9e15 }, 'streamId'],
    [
      'the largest safe stream id',
      'history:export-recap',
      { streamId: Number.MAX_SAFE_INTEGER, format: 'csv' },
      '8640000000000000',
    ],
    ['an unknown format', 'history:export-recap', { streamId: 1, format: 'xlsx' }, 'format'],
    ['a spreadsheet format as a path', 'history:export-recap', { streamId: 1, format: '../x.csv' }, 'format'],
    ['an extra field', 'history:recap', { streamId: 1, path: '/etc/passwd' }, 'path'],
    ['user 0', 'history:viewer', { userId: 0 }, 'userId'],
    ['an empty search', 'history:search', { query: '' }, 'query'],
    ['a search of spaces', 'history:search', { query: '   ' }, 'query'],
    ['a search too long', 'history:search', { query: 'a'.repeat(HISTORY_SEARCH_MAX + 1) }, 'query'],
  ])('refuses %s', async (_name, channel, arg, field) => {
    const result = await routerWith().invoke(channel, [arg]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('InvalidArgument');
    expect(!result.ok && result.error.message).toContain(field);
  });

  it('names the search limit', async () => {
    const result = await routerWith().invoke('history:search', [{ query: 'a'.repeat(HISTORY_SEARCH_MAX + 1) }]);
    expect(!result.ok && result.error.message).toContain(String(HISTORY_SEARCH_MAX));
  });
});
