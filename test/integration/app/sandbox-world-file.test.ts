/**
 * A saved sandbox world that cannot be used, met by the real app at start: cut short, the wrong shape, from
 * a newer Greenroom, or a link, folder or pipe where the file belongs. Each is moved aside (never followed,
 * never written over) with one plain line, and the app starts on the seeded world
 * ([sandbox notes](../../../docs/sandbox.md#what-the-saved-world-keeps)).
 */
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/core/clock';
import { saveWorld } from '../../../sandbox/persist';
import { SANDBOX_WORLD_FILE } from '../../../sandbox/persist-file';
import { SandboxState } from '../../../sandbox/state';
import { createWorld } from '../../../sandbox/world';
import { call, type StartedApp, startSandboxApp } from './sandbox-remembers-fixtures';

const noBrowser = (): Promise<void> => Promise.resolve();

/** A good saved world's text, with one reward in it. */
function goodWorld(): string {
  const state = new SandboxState(systemClock, { accessSeconds: 3600, codeSeconds: 600 });
  const app = createWorld(state, { assetBaseUrl: 'http://127.0.0.1:1' });
  state.rewards.set('r1', {
    id: 'r1',
    broadcasterUserId: 100001,
    createdByClientId: app.clientId,
    title: 'Saved reward',
    description: '',
    cost: 100,
    backgroundColor: '#00e701',
    isEnabled: true,
    isPaused: false,
    isUserInputRequired: false,
    shouldRedemptionsSkipRequestQueue: false,
    deleted: false,
    createdAtMs: 1,
  });
  return JSON.stringify(saveWorld(state, 'http://127.0.0.1:1'));
}

describe('a saved sandbox world that cannot be used', () => {
  let dir: string;
  let path: string;
  let run: StartedApp | null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-sandbox-world-'));
    path = join(dir, SANDBOX_WORLD_FILE);
    run = null;
  });

  afterEach(async () => {
    await run?.app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the app, and checks it came up on the seeded world with exactly one line about the file. */
  const startAndCheck = async (said: RegExp): Promise<string> => {
    run = await startSandboxApp(dir, noBrowser);
    expect(run.notices).toHaveLength(1);
    expect(run.notices[0]).toMatch(said);
    expect(run.notices[0]).toContain(path);
    expect((await call(run.app, 'app:snapshot')).mode).toBe('sandbox');
    expect(run.app.sandbox!.ctx.state.rewards.size).toBe(0);
    const aside = readdirSync(dir).filter((name) => name.startsWith(`${SANDBOX_WORLD_FILE}.damaged-`));
    expect(aside).toHaveLength(1);
    expect(run.notices[0]).toContain(join(dir, aside[0]!));
    return join(dir, aside[0]!);
  };

  it('a file cut short is moved aside whole, and the next save is a good file', async () => {
    const cut = goodWorld().slice(0, 400);
    writeFileSync(path, cut);
    const aside = await startAndCheck(/was damaged \(not valid JSON\); it was moved to .* starts fresh/);
    expect(readFileSync(aside, 'utf8')).toBe(cut);
    await call(run!.app, 'sandbox:reset');
    await run!.app.stop();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('JSON of the wrong shape is moved aside, naming what is wrong', async () => {
    const world = JSON.parse(goodWorld()) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...world, rewards: 'lots' }));
    await startAndCheck(/was damaged \(rewards: .*\); it was moved to/);
  });

  it('an empty file, and JSON null, are damaged too', async () => {
    writeFileSync(path, '');
    await startAndCheck(/was damaged \(not valid JSON\)/);
    await run!.app.stop();
    rmSync(
      join(
        dir,
        readdirSync(dir).find((n) => n.includes('.damaged-'))!,
      ),
    );
    writeFileSync(path, 'null');
    await startAndCheck(/was damaged \(/);
  });

  it('a world saved by a newer Greenroom is moved aside unread, never written over', async () => {
    const newer = JSON.stringify({ version: 2, everything: 'different' });
    writeFileSync(path, newer);
    const aside = await startAndCheck(/was saved by a newer Greenroom \(version 2\), which this one cannot read/);
    expect(readFileSync(aside, 'utf8')).toBe(newer);
  });

  it.each(['1.5', '1e308'])('a world whose version is %s is damaged, not from a newer Greenroom', async (version) => {
    const world = goodWorld().replace('"version":1', `"version":${version}`);
    writeFileSync(path, world);
    const aside = await startAndCheck(/was damaged \(version: .*\); it was moved to/);
    expect(readFileSync(aside, 'utf8')).toBe(world);
  });

  it('a link planted at its place is moved aside; what it points at is neither read nor written', async () => {
    const elsewhere = join(dir, 'elsewhere.json');
    const good = goodWorld();
    writeFileSync(elsewhere, good);
    symlinkSync(elsewhere, path);
    const aside = await startAndCheck(
      /is a link to another place \(.*elsewhere\.json\), which Greenroom will not follow/,
    );
    expect(lstatSync(aside).isSymbolicLink()).toBe(true);
    await call(run!.app, 'sandbox:reset');
    await run!.app.stop();
    expect(readFileSync(elsewhere, 'utf8')).toBe(good);
    expect(lstatSync(path).isFile()).toBe(true);
  });

  it('a folder, or a pipe, where the file belongs is moved aside', async () => {
    mkdirSync(path);
    const aside = await startAndCheck(/is a folder, not a file, which Greenroom will not follow or use/);
    expect(lstatSync(aside).isDirectory()).toBe(true);
    await run!.app.stop();
    rmSync(aside, { recursive: true });
    rmSync(path, { force: true });
    execFileSync('mkfifo', [path]);
    await startAndCheck(/is not a regular file \(a pipe, socket or device\)/);
  });
});
