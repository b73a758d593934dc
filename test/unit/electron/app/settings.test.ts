import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KICK_EVENT_TYPES, KICK_SCOPES } from '../../../../shared/kick/scopes';
import {
  openSettings,
  readSettingsDocument,
  SETTINGS_FILE_NAME,
  type SettingsFile,
  SettingsStore,
} from '../../../../electron/app/settings';
import {
  migrateV0ToV1,
  migrateV1ToV2,
  migrateV3ToV4,
  SETTINGS_VERSION,
} from '../../../../electron/app/settings-migrations';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../../shared/overlays';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../../../shared/automod';
import { DEFAULT_OBS_ACTIONS } from '../../../../shared/obs-actions';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../../shared/chat-bot';

const bytes = (n: number) => new Uint8Array(n).fill(7);

describe('settings', () => {
  let dir: string;
  let file: string;
  const lines: string[] = [];
  const notices: string[] = [];
  /** 2025-01-31T18:04:05.123Z, so a moved-aside file's name is known. */
  const nowMs = () => Date.UTC(2025, 0, 31, 18, 4, 5, 123);
  const open = (): SettingsStore =>
    openSettings(dir, { log: (l) => lines.push(l), notice: (l) => notices.push(l), nowMs, randomBytes: bytes });
  const onDisk = (): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-settings-'));
    file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    lines.length = 0;
    notices.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from the defaults in a 0600 file with the current version and a stable subdomain', () => {
    const values = open().values();
    expect(values).toEqual({
      clientId: '',
      redirectUri: 'http://127.0.0.1:3000/callback',
      tunnel: 'localtunnel',
      wantedEvents: [...KICK_EVENT_TYPES],
      scopes: [...KICK_SCOPES],
      notifications: { follows: true, subs: true, kicks: true, redemptions: true },
      chatScrollback: 1000,
      lateAfterSec: 120,
      emoteHost: 'https://files.kick.com',
      installSubdomain: expect.stringMatching(/^greenroom[a-z2-7]{16}$/),
      managedRewardIds: [],
      webhookPort: 7532,
      setupGuideDone: false,
      overlays: DEFAULT_OVERLAY_SETTINGS,
      streamerMode: false,
      theme: 'system',
      obs: { enabled: false, host: '127.0.0.1', port: 4455 },
      automod: DEFAULT_AUTOMOD_SETTINGS,
      chatBot: DEFAULT_CHAT_BOT_SETTINGS,
      chatTools: { highlights: [], ignoredUsers: [], firstMessageHighlight: true, inlineEvents: true },
      modNotes: {},
      obsActions: DEFAULT_OBS_ACTIONS,
      liveSocket: { enabled: true, channelId: null, chatroomId: null, idsFor: null },
      history: { chatDays: 90 },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(onDisk().version).toBe(SETTINGS_VERSION);
    // The subdomain is made once: a second open keeps it even with other random bytes.
    const again = openSettings(dir, { randomBytes: (n) => new Uint8Array(n).fill(1) });
    expect(again.values().installSubdomain).toBe(values.installSubdomain);
  });

  it('migrates a v0 file (no version field) to the current version and writes it back', () => {
    writeFileSync(
      file,
      JSON.stringify({
        clientId: 'abc',
        redirectPort: 3456,
        events: ['chat.message.sent', 'channel.followed'],
        scrollback: 2500,
        notifyFollows: false,
        notifyKicks: true,
        somethingFromTheFuture: 'kept',
      }),
    );
    const values = open().values();
    expect(values).toMatchObject({
      clientId: 'abc',
      redirectUri: 'http://127.0.0.1:3456/callback',
      wantedEvents: ['chat.message.sent', 'channel.followed'],
      chatScrollback: 2500,
      notifications: { follows: false, subs: true, kicks: true, redemptions: true },
    });
    const disk = onDisk();
    expect(disk.version).toBe(SETTINGS_VERSION);
    expect(disk).not.toHaveProperty('redirectPort');
    expect(disk).not.toHaveProperty('scrollback');
    expect(disk.somethingFromTheFuture).toBe('kept');
  });

  it('runs migrations in order from the stored version only', () => {
    const seen: number[] = [];
    const step = (n: number) => (doc: Record<string, unknown>) => {
      seen.push(n);
      return { ...doc, chatScrollback: 100 * (n + 2) };
    };
    const result = readSettingsDocument({ version: 1 }, () => undefined, [step(0), step(1), step(2)]);
    expect(seen).toEqual([1, 2]);
    expect(result.version).toBe(3);
    expect(result.values.chatScrollback).toBe(400);
    expect(migrateV0ToV1({ redirectUri: 'http://localhost:1/cb', redirectPort: 9 })).toEqual({
      redirectUri: 'http://localhost:1/cb',
    });
  });

  it('falls back per field when a stored value is invalid, and says so', () => {
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        chatScrollback: 5,
        tunnel: 'ftp://x',
        redirectUri: 'https://example.com/cb',
        clientId: 'keep-me',
      }),
    );
    const values = open().values();
    expect(values).toMatchObject({
      chatScrollback: 1000,
      tunnel: 'localtunnel',
      redirectUri: 'http://127.0.0.1:3000/callback',
      clientId: 'keep-me',
    });
    expect(lines.join('\n')).toMatch(/chatScrollback was invalid/);
    expect(lines.join('\n')).toMatch(/redirectUri was invalid/);
  });

  it('writes the webhook port into a v1 file (v2), and keeps a port the streamer chose', () => {
    writeFileSync(file, JSON.stringify({ version: 1, clientId: 'abc' }));
    expect(open().values().webhookPort).toBe(7532);
    expect(onDisk()).toMatchObject({ version: SETTINGS_VERSION, webhookPort: 7532, clientId: 'abc' });
    expect(migrateV1ToV2({ webhookPort: 9100 })).toEqual({ webhookPort: 9100 });
    writeFileSync(file, JSON.stringify({ version: 2, webhookPort: 70000 }));
    expect(open().values().webhookPort).toBe(7532);
    expect(lines.join()).toMatch(/webhookPort was invalid/);
  });

  it('v4: turns streamer mode on for an earlier install, off for a new one, and keeps a choice', () => {
    writeFileSync(file, JSON.stringify({ version: 3, clientId: 'abc' }));
    expect(open().values().streamerMode).toBe(true);
    expect(onDisk()).toMatchObject({ version: SETTINGS_VERSION, streamerMode: true, clientId: 'abc' });
    expect(migrateV3ToV4({})).toEqual({ streamerMode: false });
    expect(migrateV3ToV4({ version: 3, streamerMode: false })).toEqual({ version: 3, streamerMode: false });
  });

  it('validates overlay settings field by field and names the field it refuses', () => {
    const store = open();
    const overlays = structuredClone(store.values().overlays);
    overlays.alerts.kicks.minAmount = 100;
    expect(store.update({ overlays }).overlays.alerts.kicks.minAmount).toBe(100);
    const bad = structuredClone(overlays);
    bad.style.chat.font = 'x; background: url(http://evil)';
    expect(() => store.update({ overlays: bad })).toThrow(/overlays: must be font names/);
    expect(store.values().overlays.style.chat.font).toBe(overlays.style.chat.font);
  });

  it.each([
    ['cut short', '{"version": 2, "clientId": '],
    ['empty', ''],
  ])('moves a damaged (%s) file aside, says so in one line and starts from the defaults', (_, text) => {
    writeFileSync(file, text);
    expect(open().values().clientId).toBe('');
    const aside = `${file}.damaged-2025-01-31T18-04-05-123Z`;
    expect(readFileSync(aside, 'utf8')).toBe(text);
    expect(notices).toEqual([
      `Greenroom: the settings file ${file} was damaged (not valid JSON); it was moved to ${aside} and Greenroom starts with default settings.`,
    ]);
    // A fresh file with the defaults took its place.
    expect(onDisk().version).toBe(SETTINGS_VERSION);
    // A second damaged file the same millisecond does not overwrite the first one moved aside.
    writeFileSync(file, 'x');
    open();
    expect(
      readdirSync(dir)
        .filter((name) => name.includes('.damaged-'))
        .sort(),
    ).toEqual([
      `${SETTINGS_FILE_NAME}.json.damaged-2025-01-31T18-04-05-123Z`,
      `${SETTINGS_FILE_NAME}.json.damaged-2025-01-31T18-04-05-123Z-2`,
    ]);
  });

  it('validates and persists updates, and announces them', () => {
    const store = open();
    const seen: number[] = [];
    store.onChange((v) => seen.push(v.chatScrollback));
    store.update({ chatScrollback: 300, notifications: { kicks: false }, tunnel: 'off' });
    expect(seen).toEqual([300]);
    const reopened = open().values();
    expect(reopened).toMatchObject({
      chatScrollback: 300,
      tunnel: 'off',
      notifications: { follows: true, subs: true, kicks: false, redemptions: true },
    });
    expect(() => store.update({ redirectUri: 'http://example.com:3000/callback' })).toThrow(
      expect.objectContaining({
        code: 'InvalidArgument',
        message: expect.stringMatching(/^redirectUri: must be an http URL on 127\.0\.0\.1/),
      }),
    );
    expect(() => store.update({ tunnel: 'http://insecure.example' })).toThrow(/tunnel: must be/);
    expect(open().values().redirectUri).toBe('http://127.0.0.1:3000/callback');
  });

  it('hands every reader one frozen copy until a change, so a read per chat message costs no copy', () => {
    const store = open();
    const first = store.values();
    expect(store.values()).toBe(first);
    expect(Object.isFrozen(first.chatBot.commands)).toBe(true);
    expect(() => ((first.chatBot as { paused: boolean }).paused = true)).toThrow(TypeError);
    store.update({ chatScrollback: 400 });
    const after = store.values();
    expect(after).not.toBe(first);
    expect([first.chatScrollback, after.chatScrollback]).toEqual([1000, 400]);
  });

  it('keeps secrets out: only the client id is stored, and rewards created here are remembered', () => {
    const store = open();
    store.setClientId('  01CLIENT  ');
    store.addManagedReward('R1');
    store.addManagedReward('R2');
    store.removeManagedReward('R1');
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ clientId: '01CLIENT', managedRewardIds: ['R2'] });
    expect(text).not.toMatch(/secret/i);
  });

  it('reads a file from a newer Greenroom as far as it can', () => {
    writeFileSync(file, JSON.stringify({ version: 99, clientId: 'x', newField: 1 }));
    const values = open().values();
    expect(values.clientId).toBe('x');
    expect(onDisk()).toMatchObject({ version: 99, newField: 1 });
    expect(lines.join()).toMatch(/newer than this Greenroom/);
  });

  it('leaves an unchanged file alone, so a start on a full or read-only disk does not write', () => {
    open().update({ chatScrollback: 300 });
    const before = readFileSync(file, 'utf8');
    const file_ = countingFile(JSON.parse(before) as Record<string, unknown>);
    const store = new SettingsStore(file_, { randomBytes: bytes });
    expect(store.values().chatScrollback).toBe(300);
    expect(file_.writes).toEqual([]);
  });

  it('starts on a disk that refuses writes, says so once, and refuses changes without applying them', () => {
    const refusing = countingFile({}, Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    const said: string[] = [];
    const store = new SettingsStore(refusing, { randomBytes: bytes, notice: (l) => said.push(l) });
    expect(store.values().chatScrollback).toBe(1000);
    expect(said).toEqual([
      'Greenroom: could not save the settings to /data/greenroom-settings.json (the disk is full); Greenroom starts with them, but changes made now are kept only until it closes.',
    ]);
    const seen: number[] = [];
    store.onChange((v) => seen.push(v.chatScrollback));
    expect(() => store.update({ chatScrollback: 300 })).toThrow(
      expect.objectContaining({
        code: 'Internal',
        message:
          'Greenroom could not save the settings to /data/greenroom-settings.json (the disk is full); nothing was changed',
      }),
    );
    expect(store.values().chatScrollback).toBe(1000);
    expect(seen).toEqual([]);
  });
});

/** A settings file in memory that records writes and, given `failure`, refuses them. */
function countingFile(doc: Record<string, unknown>, failure?: Error): SettingsFile & { writes: unknown[] } {
  const writes: unknown[] = [];
  return {
    path: '/data/greenroom-settings.json',
    writes,
    read: () => doc,
    write: (next) => {
      if (failure) {
        throw failure;
      }
      writes.push(next);
    },
  };
}
