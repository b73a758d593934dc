import { readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HELD_SUBSCRIPTIONS_FILE,
  openHeldSubscriptionsFile,
} from '../../../../../electron/webhooks/subscriptions/held-subscriptions-file';
import { tempDir } from '../../../../helpers/temp-dir';

describe('a link at the held subscriptions file', () => {
  it('is not read through: moved aside, the run waits for Kick’s list, the file it points at untouched', () => {
    const dir = tempDir('greenroom-held-links-');
    const elsewhere = join(tempDir('greenroom-held-elsewhere-'), 'held.json');
    const text = `${JSON.stringify({ version: 1, broadcasterUserId: 666, subscriptionIds: ['planted'] })}\n`;
    writeFileSync(elsewhere, text);
    symlinkSync(elsewhere, join(dir, HELD_SUBSCRIPTIONS_FILE));
    const logs: string[] = [];
    const file = openHeldSubscriptionsFile(dir, { log: (l) => logs.push(l), nowMs: () => 0 });
    expect(file.load()).toBeNull();
    expect(logs).toEqual([expect.stringContaining(`is a link to another place (${elsewhere})`)]);
    expect(readlinkSync(join(dir, `${HELD_SUBSCRIPTIONS_FILE}.damaged-1970-01-01T00-00-00-000Z`))).toBe(elsewhere);
    file.save({ broadcasterUserId: 1, subscriptionIds: ['mine'] });
    expect(readFileSync(elsewhere, 'utf8')).toBe(text);
    expect(JSON.parse(readFileSync(join(dir, HELD_SUBSCRIPTIONS_FILE), 'utf8'))).toMatchObject({
      broadcasterUserId: 1,
    });
  });
});
