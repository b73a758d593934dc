import { describe, expect, it } from 'vitest';
import { loadSqlite } from '../../../../electron/history/sqlite-driver';

/** Node 22.13 and later (and Electron 45's Node 24) have `node:sqlite`; Node 20 has not. */
function hasSqlite(version: string): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 13);
}

describe('sqlite driver', () => {
  it('loads node:sqlite exactly where this Node has it, and says null elsewhere instead of failing', () => {
    const driver = loadSqlite();
    expect(driver !== null).toBe(hasSqlite(process.versions.node));
    if (driver) {
      const db = driver.open(':memory:');
      expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 });
      db.close();
    }
  });
});
