import { expect, it } from 'vitest';
import { migrate } from '../../../../electron/history/history-schema';
import { createViewerSearch } from '../../../../electron/history/viewer-search';
import { describeSqlite, driver, fakeClock, T0 } from './history-fixtures';

/** A store holding these viewers, the later in the list the more recently seen. */
function searchOver(names: string[]) {
  const db = driver!.open(':memory:');
  migrate(db, fakeClock(T0));
  const insert = db.prepare('INSERT INTO viewers (user_id, username, first_seen_ms, last_seen_ms) VALUES (?, ?, ?, ?)');
  names.forEach((name, i) => insert.run(i + 1, name, T0, T0 + i));
  return createViewerSearch(db);
}

describeSqlite('finding a viewer', () => {
  it('takes control characters out of the text, so a NUL cannot end the pattern early', () => {
    const search = searchOver(['anna', 'zeta']);
    expect(search.search('a\u0000zzzz', 50)).toEqual([]);
    expect(search.search('\u0000', 50)).toEqual([]);
    expect(search.search('ze\u0007ta', 50).map((h) => h.username)).toEqual(['zeta']);
  });

  it('folds names and text alike, ASCII or not', () => {
    const search = searchOver(['ÉLODIE', 'élodie_2', 'ＡＮＮＡ', 'Anna', 'ǅemal', 'ΣΟΦΙΑ']);
    expect(search.search('élo', 50).map((h) => h.username)).toEqual(['élodie_2', 'ÉLODIE']);
    expect(search.search('anna', 50).map((h) => h.username)).toEqual(['Anna', 'ＡＮＮＡ']);
    expect(search.search('ǆem', 50).map((h) => h.username)).toEqual(['ǅemal']);
    expect(search.search('σοφ', 50).map((h) => h.username)).toEqual(['ΣΟΦΙΑ']);
    expect(search.search('elo', 50)).toEqual([]);
  });

  it('keeps the newest first and the limit across ASCII names and the others', () => {
    const search = searchOver(['ana1', 'ÁNA2', 'ana3', 'ÁNA4', 'ana5']);
    expect(search.search('na', 3).map((h) => h.username)).toEqual(['ana5', 'ÁNA4', 'ana3']);
    expect(search.search('2', 3).map((h) => h.username)).toEqual(['ÁNA2']);
    expect(search.search('4', 3).map((h) => h.userId)).toEqual([4]);
  });
});
