/**
 * What in an automation setup can hurt the streamer if it came in unnoticed ([Import and
 * export](../docs/automod.md#import-and-export)): a rule that bans viewers on Kick with dry run off, and a
 * command or event reply posted from the streamer's own account carrying text a viewer chose (`{args}`, a
 * viewer's name in `{user}`), which lets chat put words in the streamer's mouth, and such a reply that is
 * itself a chat command (`/ban someone`, `!addcom …`): a command the streamer typed passes every check at
 * send ([Replies sent as you](../docs/chat-bot.md#replies-sent-as-you)), but one that came in with a file
 * was never typed by them, and chat can set it off. The import confirm names each risk the import would
 * add; one the streamer already runs is not news.
 */
import type { AUTOMOD_RULES } from './automod';
import type { PermissionLevel, ReplyEvent } from './chat-bot';
import { COMMAND_VIEWER_FIELDS, EVENT_VIEWER_FIELDS, leadingCommandChar } from './chat-bot-reply-safety';
import { findSection, type AutomationSetup } from './automation-sections';

/** The settings key of each rule that carries an action. */
const RULE_KEYS = {
  'blocked-term': 'blockedTerms',
  link: 'links',
  caps: 'caps',
  emotes: 'emotes',
  'repeated-chars': 'repeatedChars',
  'repeated-message': 'repeatedMessages',
  rate: 'rate',
} as const satisfies Record<(typeof AUTOMOD_RULES)[number], string>;

/** The reply names the Automation tab shows. */
const REPLY_NAMES: Record<ReplyEvent, string> = {
  follow: 'Follow',
  subscription: 'New sub',
  renewal: 'Resub',
  'gifted-subs': 'Gifted subs',
  kicks: 'KICKs',
  redemption: 'Redemption',
  raid: 'Raid',
};

const fieldsIn = (template: string, fields: readonly string[]): string[] =>
  fields.filter((field) => template.includes(`{${field}}`));

const fieldWords = (fields: string[]): string => fields.map((f) => `{${f}}`).join(' and ');

/** Who can set a command off, by its permission. */
const WHO_CAN_USE: Record<PermissionLevel, string> = {
  everyone: 'anyone in chat',
  subscriber: 'any subscriber',
  vip: 'any VIP',
  moderator: 'any moderator',
  broadcaster: 'only you',
};

/** The start of a template for a risk line: enough to recognise the command, never the whole 500 characters. */
function preview(template: string): string {
  const chars = [...template.trim()];
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : chars.join('');
}

/** Each risk in `setup`, keyed so the same risk in two setups has the same key. */
export function risksOf(setup: AutomationSetup): Map<string, string> {
  const risks = new Map<string, string>();
  const { automod, chatBot } = setup;
  if (!automod.dryRun) {
    const later = automod.enabled ? '' : ' once auto-moderation is switched on';
    for (const key of Object.values(RULE_KEYS)) {
      const rule = automod[key];
      if (rule.enabled && rule.action.kind === 'ban') {
        const label = findSection('automod', key)?.label ?? key;
        risks.set(`ban:${key}:${automod.enabled}`, `${label} bans viewers on Kick for real (dry run is off)${later}.`);
      }
    }
  }
  for (const command of chatBot.commands) {
    const fields = fieldsIn(command.reply, COMMAND_VIEWER_FIELDS);
    if (command.sendAs === 'user' && fields.length > 0) {
      const off = command.enabled ? '' : ' (switched off for now)';
      risks.set(
        `command:${command.name}:${fields.join()}:${command.enabled}`,
        `!${command.name} posts from your account with text a viewer chose (${fieldWords(fields)})${off}.`,
      );
    }
    if (command.sendAs === 'user' && leadingCommandChar(command.reply) !== null) {
      const off = command.enabled ? '' : ' (switched off for now)';
      risks.set(
        `command-sends-command:${command.name}:${command.permission}:${command.reply}:${command.enabled}`,
        `!${command.name} sends a chat command from your account, “${preview(command.reply)}”, and ` +
          `${WHO_CAN_USE[command.permission]} can set it off${off}.`,
      );
    }
  }
  if (chatBot.sendRepliesAs === 'user') {
    for (const [event, reply] of Object.entries(chatBot.replies) as [
      ReplyEvent,
      (typeof chatBot.replies)[ReplyEvent],
    ][]) {
      const fields = fieldsIn(reply.template, EVENT_VIEWER_FIELDS);
      if (reply.enabled && fields.length > 0) {
        risks.set(
          `reply:${event}:${fields.join()}`,
          `The ${REPLY_NAMES[event]} reply posts from your account with a viewer's name (${fieldWords(fields)}).`,
        );
      }
      if (reply.enabled && leadingCommandChar(reply.template) !== null) {
        risks.set(
          `reply-sends-command:${event}:${reply.template}`,
          `The ${REPLY_NAMES[event]} reply sends a chat command from your account each time it answers, ` +
            `“${preview(reply.template)}”.`,
        );
      }
    }
  }
  return risks;
}

/** The risks `next` has that `current` does not: what an import would add. */
export function addedRisks(current: AutomationSetup, next: AutomationSetup): string[] {
  const before = risksOf(current);
  return [...risksOf(next)].filter(([key]) => !before.has(key)).map(([, text]) => text);
}
