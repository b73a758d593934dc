/**
 * What the api-livestreams-categories.test files share: their fixtures and helpers.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxChannel } from '../../../sandbox/state';
import { call, type CallOptions, type CallResult, mintAppToken, startSandbox } from '../../helpers/sandbox';

export const keys = createSigningKeys();
/** The `data` array of a list answer, typed as the fields a test reads. */
export function items<T>(res: CallResult): T[] {
  return res.json.data as T[];
}

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
};

export const logs: string[] = [];

export const get = (path: string, options: CallOptions = {}) =>
  call(fx.api, 'GET', path, { token: mintAppToken(fx.sandbox), ...options });

export function liveChannels(): SandboxChannel[] {
  return [...fx.sandbox.ctx.state.channels.values()].filter((c) => c.isLive);
}

/** Follows `next_cursor` until it is empty, returning every page's items. */
export async function walk<T>(path: string, query: [string, string | number][], startCursor = ''): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor = startCursor;
  do {
    const res = await get(path, { query: cursor ? [...query, ['cursor', cursor]] : query });
    expect(res.status).toBe(200);
    pages.push(items<T>(res));
    cursor = res.json.pagination.next_cursor as string;
    expect(pages.length).toBeLessThan(50);
  } while (cursor !== '');
  return pages;
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeAll(async () => {
    fx.sandbox = await startSandbox({ keys, log: (line) => logs.push(line) });
    fx.api = fx.sandbox.urls.api;
  });

  afterAll(async () => {
    await fx.sandbox.close();
  });

  afterEach(() => {
    expect(logs.filter((line) => line.includes('handler error'))).toEqual([]);
  });
}
