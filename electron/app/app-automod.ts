/**
 * Auto-moderation in the app (docs/automod.md): each live chat message is judged before any panel or
 * overlay sees it; one the rules act on goes out already marked removed, and the action (a hide, a Kick
 * delete, timeout or ban, or a dry run's flag) is carried out and logged in the mod log with its rule.
 * The journal's messages at start-up are only remembered, so the repeat, rate and seen-before rules
 * continue where they were.
 */
import type { AutomodSettings, AutomodVerdict } from '../../shared/automod';
import type { ChatMessageView } from '../../shared/views';
import { Automod } from '../automod/automod';
import type { Clock } from '../core/clock';
import type { Moderation } from '../services/moderation';
import type { SettingsStore } from './settings';

export interface AppAutomod {
  /** Judges a message (`live`) or remembers it (replay); true when it must not be shown. */
  screen(message: ChatMessageView, live: boolean): boolean;
  /** The verdict for a message typed in the panel, remembering nothing. */
  test(content: string, badges: string[]): AutomodVerdict | null;
  stop(): void;
}

export function createAppAutomod(deps: {
  settings: SettingsStore;
  moderation: Pick<Moderation, 'automod'>;
  clock: Clock;
  log: (line: string) => void;
}): AppAutomod {
  const current = (): AutomodSettings => deps.settings.values().automod;
  const automod = new Automod(current());
  const off = deps.settings.onChange((values) => automod.configure(values.automod));
  for (const refused of automod.refusedTerms()) {
    deps.log(`automod: the blocked term ${refused.pattern} is not used: ${refused.reason}`);
  }
  return {
    screen(message, live) {
      const atMs = message.sentAtMs || deps.clock.now();
      if (!live) {
        automod.remember(message, atMs);
        return false;
      }
      const verdict = automod.judge(message, atMs);
      if (!verdict) {
        return false;
      }
      void deps.moderation.automod(message, verdict);
      return !verdict.dryRun;
    },
    test(content, badges) {
      const sender = {
        userId: null,
        username: 'test',
        color: null,
        badges: badges.map((type) => ({ type, text: type })),
        isVerified: false,
      };
      const atMs = deps.clock.now();
      return automod.check(
        { content, sender },
        { seenBefore: false, recent: { times: [atMs], texts: [content] }, atMs },
      );
    },
    stop: off,
  };
}
