/** OAuth scopes Kick grants ([reference §2.5](../../docs/kick-wire-reference.md#25-scopes)). `ads:*` are [UNCONFIRMED]: see `wire-assumptions.ts`. */
export const KICK_SCOPES = [
  'user:read',
  'channel:read',
  'channel:write',
  'channel:rewards:read',
  'channel:rewards:write',
  'chat:write',
  'streamkey:read',
  'events:subscribe',
  'moderation:ban',
  'moderation:chat_message:manage',
  'kicks:read',
  'ads:read',
  'ads:write',
] as const;

export type KickScope = (typeof KICK_SCOPES)[number];

export function isKickScope(value: string): value is KickScope {
  return (KICK_SCOPES as readonly string[]).includes(value);
}

/** Parses Kick's space-separated scope string, dropping empties; unknown scopes are kept as strings. */
export function parseScopeString(scope: string | null | undefined): string[] {
  if (!scope) {
    return [];
  }
  return [...new Set(scope.split(/[\s+]+/).filter((s) => s.length > 0))];
}

/** The ten webhook event types Kick documents ([reference §5.6](../../docs/kick-wire-reference.md#56-event-catalogue)); every one is version 1 today. */
export const KICK_EVENT_TYPES = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'channel.subscription.new',
  'channel.reward.redemption.updated',
  'livestream.status.updated',
  'livestream.metadata.updated',
  'moderation.banned',
  'kicks.gifted',
] as const;

export type KickEventType = (typeof KICK_EVENT_TYPES)[number];

export function isKickEventType(value: string): value is KickEventType {
  return (KICK_EVENT_TYPES as readonly string[]).includes(value);
}
