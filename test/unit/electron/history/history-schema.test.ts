import { expect, it } from 'vitest';
import {
  appliedVersions,
  migrate,
  MIGRATIONS,
  NewerSchemaError,
  SCHEMA_VERSION,
} from '../../../../electron/history/history-schema';
import { createHistoryStore } from '../../../../electron/history/history-store';
import { describeSqlite, driver, fakeClock, T0 } from './history-fixtures';

const V1_ONLY = MIGRATIONS.filter((m) => m.version === 1);

describeSqlite('history schema', () => {
  it('brings a new file to the current version and records each migration with its time', () => {
    const db = driver!.open(':memory:');
    expect(migrate(db, fakeClock(T0))).toEqual([1, 2, 3, 4]);
    expect(SCHEMA_VERSION).toBe(4);
    expect(db.prepare('SELECT version, applied_at_ms FROM schema_versions').all()).toEqual([
      { version: 1, applied_at_ms: T0 },
      { version: 2, applied_at_ms: T0 },
      { version: 3, applied_at_ms: T0 },
      { version: 4, applied_at_ms: T0 },
    ]);
    expect(migrate(db, fakeClock(T0 + 1))).toEqual([]);
    db.close();
  });

  it('migrates a v1 store to the current version, filling attendance and chat counts from what v1 holds', () => {
    const db = driver!.open(':memory:');
    migrate(db, fakeClock(T0), V1_ONLY);
    expect(appliedVersions(db)).toEqual([1]);
    db.exec(`
      INSERT INTO streams VALUES (100, 200, 100, 'one', NULL), (300, NULL, 300, 'two', NULL);
      INSERT INTO viewers (user_id, username, first_seen_ms, last_seen_ms, messages) VALUES (7, 'seven', 110, 310, 3);
      INSERT INTO chat_lines (key, at_ms, stream_id, user_id, username, content) VALUES
        ('c1', 110, 100, 7, 'seven', 'a'), ('c2', 120, 100, 7, 'seven', 'b'), ('c3', 310, 300, 7, 'seven', 'c');
      INSERT INTO events (key, type, at_ms, received_at_ms, stream_id, user_id) VALUES
        ('e1', 'channel.followed', 150, 150, 100, 8),
        ('e2', 'moderation.banned', 320, 320, 300, 8);`);
    expect(migrate(db, fakeClock(T0 + 5))).toEqual([2, 3, 4]);
    expect(appliedVersions(db)).toEqual([1, 2, 3, 4]);
    // The lines already kept are counted per stream: by minute from its start, and by chatter.
    expect(db.prepare('SELECT * FROM stream_chat_minutes ORDER BY stream_id').all()).toEqual([
      { stream_id: 100, minute: 0, messages: 2 },
      { stream_id: 300, minute: 0, messages: 1 },
    ]);
    expect(db.prepare('SELECT * FROM stream_chatters ORDER BY stream_id').all()).toEqual([
      { stream_id: 100, user_id: 7, messages: 2 },
      { stream_id: 300, user_id: 7, messages: 1 },
    ]);
    const store = createHistoryStore(db, { clock: fakeClock() });
    // Chat in both streams; a ban is no visit.
    expect(store.viewer(7)).toMatchObject({ messages: 3, streams: 2 });
    expect(db.prepare('SELECT * FROM viewer_streams WHERE user_id = 8').all()).toEqual([
      { user_id: 8, stream_id: 100 },
    ]);
    store.close();
  });

  it('refuses a store from a newer Greenroom without writing to it', () => {
    const db = driver!.open(':memory:');
    migrate(db, fakeClock(T0));
    db.exec('INSERT INTO schema_versions VALUES (5, 1)');
    expect(() => migrate(db, fakeClock(T0))).toThrow(NewerSchemaError);
    expect(() => migrate(db, fakeClock(T0))).toThrow(/newer Greenroom \(schema version 5, this one knows up to 4\)/);
    expect(appliedVersions(db)).toEqual([1, 2, 3, 4, 5]);
    db.close();
  });

  it('rolls a failing migration back whole, recording nothing', () => {
    const db = driver!.open(':memory:');
    migrate(db, fakeClock(T0), V1_ONLY);
    const broken = [
      ...V1_ONLY,
      { version: 2, summary: 'half', sql: 'CREATE TABLE half (x); SELECT nope FROM nowhere;' },
    ];
    expect(() => migrate(db, fakeClock(T0), broken)).toThrow(/no such table/);
    expect(appliedVersions(db)).toEqual([1]);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half'").all()).toEqual([]);
    db.close();
  });
});
