import { describe, expect, it } from 'vitest';
import { planAutomationImport } from '../../../shared/automation-import';
import { addedRisks } from '../../../shared/automation-risks';
import { accepted, exportFile, streamerSetup } from './automation-fixtures';

const RISKY = {
  automod: {
    dryRun: false,
    blockedTerms: {
      terms: [
        { pattern: '(\\w)\\1{4,}', kind: 'regex' },
        { pattern: 'free followers', kind: 'plain' },
      ],
      action: { kind: 'ban' },
    },
  },
  chatBot: { commands: [{ name: 'say', reply: 'I agree: {args}', sendAs: 'user' }] },
};

describe('the risks an import adds', () => {
  it('names a ban with dry run off, a command posting a viewer’s text as the streamer, and leaves out an unsafe regex', () => {
    const result = accepted(planAutomationImport(exportFile(streamerSetup(), RISKY), streamerSetup()));
    expect(result.risks).toEqual([
      'Blocked terms bans viewers on Kick for real (dry run is off).',
      '!say posts from your account with text a viewer chose ({args}).',
    ]);
    expect(result.leftOut).toEqual([
      expect.stringMatching(/^The regular expression \(\\w\)\\1\{4,\} is refused: backreferences/),
    ]);
    // What is sent holds no term the safety check refuses: main's Save check would refuse the whole patch.
    expect(result.patch.automod?.blockedTerms.terms).toEqual([{ pattern: 'free followers', kind: 'plain' }]);
    expect(result.changes).toContain('Blocked terms: 12 terms, on, delete → 1 term, on, ban');
  });

  it.each([
    [{ automod: { dryRun: false, links: { enabled: true, action: { kind: 'ban' } } } }, /^Links rule bans viewers/],
    [
      { automod: { enabled: false, dryRun: false, rate: { enabled: true, action: { kind: 'ban' } } } },
      /^Message rate rule bans .* once auto-moderation is switched on\.$/,
    ],
    [
      { chatBot: { commands: [{ name: 'hi', reply: 'hi {user}', sendAs: 'user', enabled: false }] } },
      /\(\{user\}\) \(switched off for now\)/,
    ],
    [
      { chatBot: { sendRepliesAs: 'user' } },
      /^The Follow reply posts from your account with a viewer's name \(\{user\}\)\.$/,
    ],
    [
      { chatBot: { commands: [{ name: 'echo', reply: 'Quote of the day: {user} said {args}', sendAs: 'user' }] } },
      /^!echo posts from your account with text a viewer chose \(\{user\} and \{args\}\)\.$/,
    ],
    [
      { chatBot: { commands: [{ name: 'hi', permission: 'everyone', sendAs: 'user', reply: '/ban someone' }] } },
      /^!hi sends a chat command from your account, “\/ban someone”, and anyone in chat can set it off\.$/,
    ],
    [
      {
        chatBot: {
          sendRepliesAs: 'user',
          replies: { follow: { enabled: true, template: '!addcom !discord https://discord.example/free' } },
        },
      },
      /^The Follow reply sends a chat command from your account each time it answers, “!addcom !discord/,
    ],
    // The same command behind blanks and invisible characters a chat client skips, or in full width.
    [
      { chatBot: { commands: [{ name: 'hi', sendAs: 'user', reply: ' \u2060\u200b!ban someone' }] } },
      /^!hi sends a chat command .* anyone in chat can set it off\.$/,
    ],
    [
      { chatBot: { commands: [{ name: 'hi', sendAs: 'user', reply: '\u3000／ban someone', permission: 'vip' }] } },
      /^!hi sends a chat command .* any VIP can set it off\.$/,
    ],
    [
      { chatBot: { commands: [{ name: 'hi', sendAs: 'user', reply: '\u3164!ban someone', enabled: false }] } },
      /^!hi sends a chat command .* \(switched off for now\)\.$/,
    ],
  ])('flags %j', (over, risk) => {
    const result = accepted(
      planAutomationImport(exportFile(streamerSetup(), { automod: {}, chatBot: {}, ...over }), streamerSetup()),
    );
    expect(result.risks).toEqual([expect.stringMatching(risk)]);
  });

  it.each([
    ['a ban in dry run', { automod: { blockedTerms: { action: { kind: 'ban' } } } }],
    ['a ban on a rule that is off', { automod: { dryRun: false, caps: { enabled: false, action: { kind: 'ban' } } } }],
    ['{args} sent as the bot', { chatBot: { commands: [{ name: 'say', reply: '{args}' }] } }],
    [
      'a command as the streamer with no viewer text',
      { chatBot: { commands: [{ name: 'up', reply: '{uptime}', sendAs: 'user' }] } },
    ],
    ['a chat command sent as the bot', { chatBot: { commands: [{ name: 'hi', reply: '/ban someone' }] } }],
    [
      'an event reply that is a chat command, sent as the bot',
      { chatBot: { replies: { follow: { enabled: true, template: '!addcom !x y' } } } },
    ],
    [
      'an event reply that is a chat command but switched off',
      { chatBot: { sendRepliesAs: 'user', replies: { follow: { enabled: false, template: '!addcom !x y' } } } },
    ],
    [
      'a command character later in a reply sent as the streamer',
      { chatBot: { commands: [{ name: 'hi', reply: 'Type !discord for the link', sendAs: 'user' }] } },
    ],
  ])('does not flag %s', (_name, over) => {
    const result = accepted(
      planAutomationImport(exportFile(streamerSetup(), { automod: {}, chatBot: {}, ...over }), streamerSetup()),
    );
    expect(result.risks).toEqual([]);
  });

  it('does not repeat a risk the streamer already runs', () => {
    const current = streamerSetup();
    current.automod.dryRun = false;
    current.automod.blockedTerms.action = { kind: 'ban', minutes: 5 };
    const next = structuredClone(current);
    next.chatBot.timers = [];
    expect(addedRisks(current, next)).toEqual([]);
    next.automod.links = { ...next.automod.links, enabled: true, action: { kind: 'ban', minutes: 5 } };
    expect(addedRisks(current, next)).toEqual(['Links rule bans viewers on Kick for real (dry run is off).']);
  });
});
