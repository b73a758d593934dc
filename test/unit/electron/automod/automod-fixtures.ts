import { type AutomodSettings, DEFAULT_AUTOMOD_SETTINGS } from '../../../../shared/automod';
import type { KickBadge } from '../../../../shared/kick/events';
import type { ChatMessageView } from '../../../../shared/views';
import { Automod } from '../../../../electron/automod/automod';

let next = 0;

/** A chat message from `userId` with `badges`. */
export function msg(content: string, userId = 100100, badges: KickBadge[] = []): ChatMessageView {
  next += 1;
  return {
    messageId: `m${next}`,
    content,
    emotes: [],
    sender: { userId, username: `viewer${userId}`, color: null, badges, isVerified: false },
    replyTo: null,
    sentAtMs: 0,
    deleted: false,
  };
}

/** Auto-moderation on, acting (not dry run), nobody exempt, with `change` applied. */
export function automod(change: (s: AutomodSettings) => void = () => undefined): Automod {
  const settings = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  settings.enabled = true;
  settings.dryRun = false;
  settings.exemptBadges = [];
  change(settings);
  return new Automod(settings);
}
