/**
 * A sound store that SQLite cannot open for a reason outside the file
 * ([history](../../../docs/history.md#crash-safety-and-rebuild)): its `-wal` or `-shm` name taken by a folder.
 * The store is not damaged, so it is never moved aside and rebuilt from a journal that may have rolled over and
 * hold far less: the open fails with the reason, the file stays, and once the cause is gone it opens whole.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeSqlite, events, MIN, T0 } from '../../unit/electron/history/history-fixtures';
import { open, scriptedStream, storyOf, useDataFolder } from './history-fixtures';

const folder = useDataFolder();
const T1 = T0 + 5 * 60 * MIN;
/** A second stream: all a rolled-over journal still holds. */
const second = [events.live(T1), events.chat('later-1', 10, T1 + MIN), events.offline(T1, T1 + 30 * MIN)];

describeSqlite('a sound store that cannot be opened this once', () => {
  it.each(['-wal', '-shm'])('stays where it is when its %s is a folder, and opens whole later', async (side) => {
    const first = await open(folder.path(), [...scriptedStream(), ...second], T1 + 40 * MIN);
    const before = storyOf(first.store);
    expect(before.streams).toHaveLength(2);
    first.store.close();
    rmSync(`${folder.path()}${side}`, { force: true });
    mkdirSync(`${folder.path()}${side}`);

    await expect(open(folder.path(), second, T1 + 50 * MIN)).rejects.toThrow(
      /history\.sqlite could not be opened and was left as it is \(.+\)/,
    );
    expect(readdirSync(folder.dir()).filter((name) => name.includes('.damaged'))).toEqual([]);
    expect(existsSync(folder.path())).toBe(true);

    rmSync(`${folder.path()}${side}`, { recursive: true });
    const again = await open(folder.path(), second, T1 + 60 * MIN);
    expect(again.rebuilt).toBeNull();
    expect(again.lines).toEqual([]);
    expect(storyOf(again.store)).toEqual(before);
    again.store.close();
  });
});
