/**
 * The parts of the automation setup an import replaces one by one ([Import and
 * export](../docs/automod.md#import-and-export)): each top-level field of the auto-moderation rules and of the
 * chat bot, and each OBS action ([OBS actions on events](../docs/obs.md#obs-actions-on-events)), with the name a
 * streamer knows it by and a short summary of its value, so the confirm can say
 * "Blocked terms: 12 terms, on, delete → 3 terms, on, delete". The bot's pause switch is not here: it is the
 * header's live switch, not part of a setup a file carries.
 */
import type { AutomodAction, AutomodSettings } from './automod';
import type { ChatBotSettings } from './chat-bot';
import type { ObsActionsSettings, SceneSwitch } from './obs-actions';
import { plural } from './plural';

/** The parts of the setup, as the settings hold them. */
export interface AutomationSetup {
  automod: AutomodSettings;
  chatBot: ChatBotSettings;
  obsActions: ObsActionsSettings;
}

export type AutomationArea = keyof AutomationSetup;

/** A section: where it sits, what the streamer calls it, and its value in a few words. */
export interface AutomationSection {
  area: AutomationArea;
  key: string;
  label: string;
  summary: (value: never) => string;
}

const onOff = (on: boolean): string => (on ? 'on' : 'off');

const count = (n: number, one: string): string => plural(n, one);

const actionWords = (action: AutomodAction): string =>
  action.kind === 'timeout' ? `${action.minutes} min timeout` : action.kind;

const rule = (value: { enabled: boolean; action: AutomodAction }): string =>
  value.enabled ? `on, ${actionWords(value.action)}` : 'off';

type Summaries<T, K extends keyof T> = { [P in K]: { label: string; summary: (value: T[P]) => string } };

const AUTOMOD: Summaries<AutomodSettings, keyof AutomodSettings> = {
  enabled: { label: 'Auto-moderation', summary: onOff },
  dryRun: { label: 'Dry run', summary: onOff },
  exemptBadges: { label: 'Exempt badges', summary: (badges) => (badges.length > 0 ? badges.join(', ') : 'none') },
  blockedTerms: { label: 'Blocked terms', summary: (s) => `${count(s.terms.length, 'term')}, ${rule(s)}` },
  links: { label: 'Links rule', summary: (s) => `${rule(s)}, ${count(s.allow.length, 'allowed domain')}` },
  caps: { label: 'Capitals rule', summary: rule },
  emotes: { label: 'Emotes rule', summary: rule },
  repeatedChars: { label: 'Repeated characters rule', summary: rule },
  repeatedMessages: { label: 'Repeated messages rule', summary: rule },
  rate: { label: 'Message rate rule', summary: rule },
};

type ChatBotKey = Exclude<keyof ChatBotSettings, 'paused'>;

const CHAT_BOT: Summaries<ChatBotSettings, ChatBotKey> = {
  commands: { label: 'Commands', summary: (commands) => count(commands.length, 'command') },
  timers: { label: 'Timers', summary: (timers) => count(timers.length, 'timer') },
  replies: {
    label: 'Event replies',
    summary: (replies) => {
      const all = Object.values(replies);
      return `${all.filter((r) => r.enabled).length} of ${all.length} on`;
    },
  },
  welcomeBack: {
    label: 'Welcome back reply',
    summary: (w) => (w.enabled ? `on, after ${count(w.afterDays, 'day')} away` : 'off'),
  },
  sendRepliesAs: { label: 'Event replies sent', summary: (as) => (as === 'user' ? 'as you' : 'as the bot') },
};

const sceneSwitch = (value: SceneSwitch): string => (value.enabled ? `on, to ${value.scene}` : 'off');

const OBS_ACTIONS: Summaries<ObsActionsSettings, keyof ObsActionsSettings> = {
  adBreak: { label: 'OBS scene for ad breaks', summary: sceneSwitch },
  rewards: {
    label: 'OBS sources for rewards',
    summary: (rewards) => `${count(rewards.length, 'reward')}, ${rewards.filter((r) => r.enabled).length} on`,
  },
  goLive: { label: 'OBS scene on going live', summary: sceneSwitch },
  goOffline: { label: 'OBS scene on going offline', summary: sceneSwitch },
  raid: { label: 'OBS scene on a raid', summary: sceneSwitch },
};

const sectionsOf = (area: AutomationArea, table: Record<string, { label: string; summary: (v: never) => string }>) =>
  Object.entries(table).map(([key, { label, summary }]): AutomationSection => ({ area, key, label, summary }));

/** Every section an import may replace, in the order the confirm lists them. */
export const AUTOMATION_SECTIONS: readonly AutomationSection[] = [
  ...sectionsOf('automod', AUTOMOD),
  ...sectionsOf('chatBot', CHAT_BOT),
  ...sectionsOf('obsActions', OBS_ACTIONS),
];

/** The section at `area.key`, if there is one. */
export function findSection(area: string, key: string | number | undefined): AutomationSection | undefined {
  return AUTOMATION_SECTIONS.find((s) => s.area === area && s.key === key);
}

/** A section's value in a setup. */
export function sectionValue(setup: AutomationSetup, section: AutomationSection): unknown {
  return (setup[section.area] as unknown as Record<string, unknown>)[section.key];
}

/** The summary of a section's value in a setup ("3 terms, on, delete"). */
export function summarise(setup: AutomationSetup, section: AutomationSection): string {
  return section.summary(sectionValue(setup, section) as never);
}
