/**
 * What the api-users-channels.test files share: their fixtures and helpers.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { type CallResult, startSandbox } from '../../helpers/sandbox';

export const keys = createSigningKeys();
export const allBut = (scope: string): string[] => KICK_SCOPES.filter((s) => s !== scope);

/** The `data` array of a list answer, typed as the fields a test reads. */
export function items<T>(res: CallResult): T[] {
  return res.json.data as T[];
}

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
};

export const logs: string[] = [];

export function captureEvents(): { events: SandboxEvent[]; stop: () => void } {
  const events: SandboxEvent[] = [];
  const stop = fx.sandbox.ctx.state.onEvent((event) => events.push(event));
  return { events, stop };
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
    // A handler that throws answers 500 and logs; no request in these tests may get there.
    expect(logs.filter((line) => line.includes('handler error'))).toEqual([]);
  });
}
