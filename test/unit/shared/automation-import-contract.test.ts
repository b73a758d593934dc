import { describe, expect, it } from 'vitest';
import { automodSettingsSchema } from '../../../shared/automod';
import {
  AUTOMATION_FILE_MAX_BYTES,
  AUTOMATION_SEND_MAX_BYTES,
  planAutomationImport,
  readAutomationFile,
} from '../../../shared/automation-import';
import { chatBotSettingsSchema, REPLY_EVENTS } from '../../../shared/chat-bot';
import { INVOKE_SCHEMAS } from '../../../shared/ipc-contract';
import { obsActionsSettingsSchema } from '../../../shared/obs-actions';
import { PANEL_MAX_FRAME_BYTES } from '../../../shared/panel-protocol';
import { accepted, bytesOf, exportFile, refused, streamerSetup } from './automation-fixtures';

const passesContract = (patch: unknown) => INVOKE_SCHEMAS['settings:update'].safeParse([patch]).success;

/** The biggest setup the schemas allow, every text at its limit in three-byte characters. */
function largestSetup() {
  const text = (length: number) => '語'.repeat(length);
  const automod = automodSettingsSchema.parse({
    exemptBadges: ['broadcaster', 'moderator', 'vip', 'subscriber', 'og', 'founder'],
    blockedTerms: { terms: Array.from({ length: 1000 }, () => ({ pattern: text(200), kind: 'wildcard' })) },
    links: { allow: Array.from({ length: 200 }, () => 'a'.repeat(100)) },
  });
  const name = (i: number, j: number) => `c${i}_${j}`.padEnd(25, 'x');
  const chatBot = chatBotSettingsSchema.parse({
    commands: Array.from({ length: 200 }, (_, i) => ({
      name: name(i, 99),
      aliases: Array.from({ length: 10 }, (_, j) => name(i, j)),
      reply: text(500),
    })),
    timers: Array.from({ length: 50 }, () => ({ message: text(500) })),
    replies: Object.fromEntries(
      REPLY_EVENTS.map((kind) => [kind, { template: text(500), rewards: Array.from({ length: 15 }, () => text(50)) }]),
    ),
  });
  const obsActions = obsActionsSettingsSchema.parse({
    adBreak: { enabled: true, scene: text(200) },
    rewards: Array.from({ length: 20 }, (_, i) => ({
      rewardId: String(i).padStart(64, 'r'),
      rewardTitle: text(50),
      source: text(200),
      scene: text(200),
      seconds: 300,
    })),
    goLive: { enabled: true, scene: text(200) },
    goOffline: { enabled: true, scene: text(200) },
  });
  return { automod, chatBot, obsActions };
}

describe('what an import sends', () => {
  it('fits the largest export the schemas allow under the file limit, and its settings under the socket frame', () => {
    const setup = largestSetup();
    const text = `${JSON.stringify(exportFile(setup), null, 2)}\n`;
    const size = bytesOf(text).length;
    expect(size).toBeLessThan(AUTOMATION_FILE_MAX_BYTES);
    expect(AUTOMATION_SEND_MAX_BYTES).toBeLessThan(PANEL_MAX_FRAME_BYTES);
    const read = readAutomationFile(bytesOf(text));
    // Over a setup of the same size, so every section both sends and is what the file holds.
    const plan = accepted(planAutomationImport(read.ok && read.value, streamerSetup()));
    expect(bytesOf(JSON.stringify(plan.patch)).length).toBeLessThan(AUTOMATION_SEND_MAX_BYTES);
  });

  it.each([
    ['more regular expressions than a rule set may run', { automod: { blockedTerms: { terms: regexes(120) } } }],
    [
      'unsafe expressions among safe ones',
      { automod: { blockedTerms: { terms: [...regexes(3), { pattern: '(?<=a)b', kind: 'regex' }] } } },
    ],
    ['a term with __proto__ inside', { automod: { blockedTerms: { terms: [{ pattern: 'x', ['__proto__']: {} }] } } }],
    [
      'commands with the streamer’s words first',
      { chatBot: { commands: [{ name: 'q', reply: 'Q: {args}', sendAs: 'user' }] } },
    ],
  ])('sends only what settings:update accepts: %s', (_name, over) => {
    const plan = accepted(
      planAutomationImport(exportFile(streamerSetup(), { automod: {}, chatBot: {}, ...over }), streamerSetup()),
    );
    expect(passesContract(plan.patch)).toBe(true);
    const sent = plan.patch.automod?.blockedTerms.terms.length ?? 0;
    const given =
      (over as { automod?: { blockedTerms: { terms: unknown[] } } }).automod?.blockedTerms.terms.length ?? 0;
    expect(sent + plan.leftOut.length).toBe(given);
  });

  it('refuses, at its command, a reply sent as the streamer that a viewer’s text would begin', () => {
    const over = { chatBot: { commands: [{ name: 'say', reply: '{args}', sendAs: 'user' }] } };
    expect(passesContract({ chatBot: { ...streamerSetup().chatBot, commands: over.chatBot.commands } })).toBe(false);
    const refusal = refused(
      planAutomationImport(exportFile(streamerSetup(), { automod: {}, ...over }), streamerSetup()),
    );
    expect(refusal.reason).toMatch(/^Commands in this file, number 1: .*!say.*\. Nothing was changed\.$/);
    expect(refusal.detail).toMatch(/^chatBot\.commands\.0\.reply: /);
  });

  it('leaves out each regular expression past what a rule set may run, naming it', () => {
    const plan = accepted(
      planAutomationImport(
        exportFile(streamerSetup(), { automod: { blockedTerms: { terms: regexes(120) } } }),
        streamerSetup(),
      ),
    );
    expect(plan.leftOut.length).toBeGreaterThan(0);
    expect(plan.leftOut[0]).toMatch(/^The regular expression r\d+x is refused: /);
    expect(plan.changes[0]).toMatch(/^Blocked terms: 12 terms, on, delete → \d+ terms, on, delete$/);
  });

  it('keeps Object.prototype clean whatever the file holds', () => {
    const text =
      '{"kind":"greenroom-automation","__proto__":{"polluted":1},"automod":{"__proto__":{"polluted":2},' +
      '"blockedTerms":{"__proto__":{"polluted":3},"terms":[{"pattern":"a","__proto__":{"kind":"regex"}}]}}}';
    const read = readAutomationFile(bytesOf(text));
    const plan = accepted(planAutomationImport(read.ok && read.value, streamerSetup()));
    expect(plan.patch.automod?.blockedTerms.terms).toEqual([{ pattern: 'a', kind: 'plain' }]);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(plan.ignored).toEqual(['"__proto__"', 'automod.blockedTerms."__proto__"', 'automod."__proto__"']);
  });
});

function regexes(count: number) {
  return Array.from({ length: count }, (_, i) => ({ pattern: `r${i}x`, kind: 'regex' }));
}
