/**
 * `settings:update` through the router, as the panel sends it, over a real settings file: a redirect URL the
 * contract or Greenroom's own ports refuse, and a rule main refuses, come back as InvalidArgument naming
 * the field as data (`details.fields`) with the reason in plain words, and nothing is written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppSettings } from '../../../../electron/app/app-settings';
import type { AppConfig } from '../../../../electron/app/config';
import { openSettings, SETTINGS_FILE_NAME } from '../../../../electron/app/settings';
import { createRouter, type InvokeHandlers } from '../../../../electron/ipc/router';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../../../shared/automod';
import { fieldRefusalsOf } from '../../../../shared/field-refusal';

const PANEL_PORT = 7531;
const WEBHOOK_PORT = 7600;

describe('settings:update refusals through the router', () => {
  let dir: string;
  let file: string;
  const notices: string[] = [];
  const open = () =>
    openSettings(dir, { randomBytes: (n) => new Uint8Array(n).fill(7), notice: (l) => notices.push(l) });

  /** The router with the real settings handler over the data dir's file. */
  function router() {
    const config = {
      panelPort: PANEL_PORT,
      webhook: { port: WEBHOOK_PORT },
      credentialSource: { clientId: 'settings', clientSecret: 'none' },
      dataDir: dir,
    } as unknown as AppConfig;
    const settings = createAppSettings({
      settings: open(),
      config,
      secretStore: {} as never,
      sandboxEmoteHost: null,
      sandboxAdmin: null,
      notApplied: () => null,
    });
    // As electron/ipc/handlers.ts wires it.
    const update: InvokeHandlers['settings:update'] = (patch) => Promise.resolve(settings.update(patch));
    const handlers = new Proxy(
      { 'settings:update': update },
      {
        get: (target, key: string) =>
          (target as Record<string, unknown>)[key] ?? (() => Promise.reject(new Error(key))),
      },
    );
    return createRouter({ handlers: { invoke: handlers as InvokeHandlers, send: {} as never }, log: () => undefined });
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-refusals-'));
    file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    notices.length = 0;
    open().update({ redirectUri: 'http://127.0.0.1:3000/callback' });
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = async (patch: Record<string, unknown>) => {
    const before = readFileSync(file, 'utf8');
    const result = await router().invoke('settings:update', [patch]);
    expect(result.ok).toBe(false);
    // Nothing written: the file is as it was.
    expect(readFileSync(file, 'utf8')).toBe(before);
    if (result.ok) {
      throw new Error('saved');
    }
    expect(result.error.code).toBe('InvalidArgument');
    return fieldRefusalsOf(result.error);
  };

  it.each([
    ['http://localhost:99999/cb', /^The port must be between 1 and 65535\.$/],
    ['http://127.0.0.1:0/cb', /^The port must be between 1 and 65535\. .*0 \(any free port\)/],
    ['http://localhost/', /Add a path/],
  ])('refuses the redirect %s beside its field, in plain words', async (redirectUri, reason) => {
    expect(await refusal({ redirectUri })).toEqual([{ field: 'redirectUri', reason: expect.stringMatching(reason) }]);
  });

  it.each([
    [`http://127.0.0.1:${PANEL_PORT}/callback`, 'its panel and OBS links'],
    [`http://[::1]:${PANEL_PORT}/cb`, 'its panel and OBS links'],
    [`http://0x7f.0.0.1:${WEBHOOK_PORT}/cb`, "receiving Kick's events"],
    [`http://localhost:0${WEBHOOK_PORT}/cb`, "receiving Kick's events"],
    ['http://127.0.0.1:7411/callback', 'its sandbox'],
  ])('refuses the redirect %s on a port Greenroom uses, saying which and what to pick', async (redirectUri, use) => {
    const [refused, ...rest] = await refusal({ redirectUri });
    expect(rest).toEqual([]);
    expect(refused!.field).toBe('redirectUri');
    expect(refused!.reason).toContain(use);
    expect(refused!.reason).toMatch(/^Port \d+ is the one Greenroom uses for .*\. Pick another port, such as 3000\.$/);
  });

  it('names every refused blocked term by its path', async () => {
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.blockedTerms.terms = [
      { pattern: 'fine', kind: 'regex' },
      { pattern: '(a+)+$', kind: 'regex' },
      { pattern: '[unclosed', kind: 'regex' },
    ];
    const refused = await refusal({ automod });
    expect(refused.map((r) => r.field)).toEqual([
      'automod.blockedTerms.terms.1.pattern',
      'automod.blockedTerms.terms.2.pattern',
    ]);
    expect(refused[1]!.reason).toMatch(/not a valid regular expression/);
  });

  it('saves a redirect on a free port', async () => {
    const result = await router().invoke('settings:update', [{ redirectUri: 'http://[::1]:53682/callback' }]);
    expect(result).toMatchObject({ ok: true, value: { redirectUri: 'http://[::1]:53682/callback' } });
  });

  it('resets a hand-edited webhook port on the panel port, saying which port Greenroom uses there', () => {
    writeFileSync(file, JSON.stringify({ version: 2, webhookPort: PANEL_PORT }));
    expect(open().values().webhookPort).toBe(7532);
    expect(notices.join('\n')).toMatch(
      /The webhook port was reset to its default: Port 7531 is the one Greenroom uses for its panel and OBS links\. Pick another port, such as 7532\. /,
    );
  });
});
