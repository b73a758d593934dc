import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessageView, ModAction } from '../../../../shared/views';
import { AdjustableClock } from '../../../../electron/core/clock';
import { ChatHistory } from '../../../../electron/services/chat-history';
import { MOD_LOG_FILE, openModLogFile } from '../../../../electron/services/mod-log-file';
import { Moderation, type ModerationClient } from '../../../../electron/services/moderation';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-modlog-'));
  dirs.push(dir);
  return dir;
}

function action(n: number, over: Partial<ModAction> = {}): ModAction {
  return {
    id: `a-${String(n).padStart(4, '0')}`,
    kind: 'timeout',
    atMs: 1_000 + n,
    targetUserId: 7,
    targetUsername: 'noodle_ninja',
    minutes: 10,
    ok: true,
    ...over,
  };
}

const client: ModerationClient = {
  banUser: () => Promise.resolve(),
  unbanUser: () => Promise.resolve(),
  deleteChatMessage: () => Promise.resolve(),
  fetchUser: () => Promise.resolve(null),
};

/** Moderation as create-app builds it: the log on disk in the data dir. */
function moderationIn(dir: string, logs: string[] = []) {
  const chat = new ChatHistory();
  const message: ChatMessageView = {
    messageId: 'msg-1',
    content: 'hi',
    emotes: [],
    sender: { userId: 7, username: 'noodle_ninja', color: null, badges: [], isVerified: false },
    replyTo: null,
    sentAtMs: 0,
    deleted: false,
  };
  chat.add(message);
  const log = (line: string) => void logs.push(line);
  return new Moderation({
    client,
    broadcasterUserId: () => Promise.resolve(100001),
    chat,
    clock: new AdjustableClock({ now: () => 5_000_000 }),
    onAction: () => undefined,
    onDeleted: () => undefined,
    log,
    store: openModLogFile(join(dir, MOD_LOG_FILE), { limit: 500, log }),
  });
}

describe('the mod log on disk', () => {
  it('brings back every action taken through Greenroom after a restart, in order', async () => {
    const dir = tempDir();
    const first = moderationIn(dir);
    await first.timeout({ userId: 7, minutes: 10, reason: 'calm down' });
    await first.ban({ userId: 7 });
    await first.deleteMessage('msg-1');
    await first.unban({ userId: 7 });
    await first.flush();

    const restarted = moderationIn(dir);
    expect(restarted.actions()).toEqual(first.actions());
    expect(restarted.actions().map((a) => a.kind)).toEqual(['timeout', 'ban', 'delete', 'unban']);
    expect(restarted.actions()[0]).toMatchObject({ minutes: 10, reason: 'calm down', targetUsername: 'noodle_ninja' });
  });

  it('has each action on disk by the time it is answered, so a kill -9 right after loses none', async () => {
    const dir = tempDir();
    const moderation = moderationIn(dir);
    const ban = await moderation.ban({ userId: 7, reason: 'spam' });
    // No flush: what the panel was answered must already be in the file.
    const lines = readFileSync(join(dir, MOD_LOG_FILE), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ModAction).id)).toEqual([ban.id]);
  });

  it('skips a torn last line from a crash mid-write, keeps the rest, and then writes whole lines again', async () => {
    const dir = tempDir();
    const path = join(dir, MOD_LOG_FILE);
    writeFileSync(path, `${JSON.stringify(action(1))}\n${JSON.stringify(action(2))}\n`);
    // A crash after part of the third line reached the disk.
    appendFileSync(path, JSON.stringify(action(3)).slice(0, 25));
    const logs: string[] = [];
    const store = openModLogFile(path, { limit: 500, log: (l) => void logs.push(l) });
    expect(store.load().map((a) => a.id)).toEqual(['a-0001', 'a-0002']);
    expect(logs.join()).toMatch(/skipped 1 unreadable line/);

    await store.append(action(4));
    const again = openModLogFile(path, { limit: 500, log: () => undefined });
    expect(again.load().map((a) => a.id)).toEqual(['a-0001', 'a-0002', 'a-0004']);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });

  it('stays bounded: rewritten to the newest entries, never more than twice the limit in lines', async () => {
    const dir = tempDir();
    const path = join(dir, MOD_LOG_FILE);
    const store = openModLogFile(path, { limit: 10, log: () => undefined });
    store.load();
    for (let n = 1; n <= 45; n++) {
      await store.append(action(n));
      expect(readFileSync(path, 'utf8').split('\n').length - 1).toBeLessThanOrEqual(20);
    }
    const reopened = openModLogFile(path, { limit: 10, log: () => undefined });
    expect(reopened.load().map((a) => a.id)).toEqual(Array.from({ length: 10 }, (_, i) => action(36 + i).id));
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it('writes each action once when several are queued behind a rewrite', async () => {
    const dir = tempDir();
    const path = join(dir, MOD_LOG_FILE);
    writeFileSync(path, 'torn');
    const store = openModLogFile(path, { limit: 500, log: () => undefined });
    store.load();
    // Queued at once, not awaited one by one: they share the rewrite's batch or the next one.
    for (let n = 1; n <= 5; n++) {
      void store.append(action(n));
    }
    await store.flush();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(5);
  });

  it('ignores lines that are not mod actions (a hand edit) instead of failing the start', () => {
    const dir = tempDir();
    const path = join(dir, MOD_LOG_FILE);
    writeFileSync(path, `not json\n{"id":"x"}\n${JSON.stringify(action(9))}\n`);
    const store = openModLogFile(path, { limit: 500, log: () => undefined });
    expect(store.load().map((a) => a.id)).toEqual(['a-0009']);
  });

  it('keeps moderating when the data dir refuses writes, and says so once', async () => {
    // A "data dir" that is a file: every open fails (ENOTDIR), as on a read-only or vanished dir, even as root.
    const dir = join(tempDir(), 'not-a-dir');
    writeFileSync(dir, '');
    const logs: string[] = [];
    const moderation = moderationIn(dir, logs);
    await moderation.ban({ userId: 7 });
    await moderation.unban({ userId: 7 });
    await moderation.flush();
    expect(moderation.actions().map((a) => a.kind)).toEqual(['ban', 'unban']);
    expect(logs.filter((l) => l.includes('could not write'))).toHaveLength(1);
  });
});
