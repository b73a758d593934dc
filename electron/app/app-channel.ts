/**
 * The channel operations as the app wires them (services/channel-ops.ts): rewards this app created are
 * remembered in the settings, redeemers are named from the feed and chat, and a redemption decided in the
 * panel updates its feed entry for every panel.
 */
import type { KickClient } from '../kick/kick-client';
import type { AccountService } from '../services/account';
import { ChannelOps } from '../services/channel-ops';
import type { ChatHistory } from '../services/chat-history';
import type { Feed } from '../services/feed';
import type { AppEventEmitter } from './app-events';
import type { SettingsStore } from './settings';

export function createAppChannel(deps: {
  client: KickClient;
  settings: SettingsStore;
  account: AccountService;
  feed: Feed;
  chat: ChatHistory;
  events: AppEventEmitter;
  log: (line: string) => void;
}): ChannelOps {
  const { settings, feed, chat, events } = deps;
  return new ChannelOps({
    client: deps.client,
    managedRewards: {
      has: (id) => settings.values().managedRewardIds.includes(id),
      add: (id) => settings.addManagedReward(id),
      remove: (id) => settings.removeManagedReward(id),
    },
    broadcasterUserId: () => deps.account.userId(),
    // Kick lists redeemers by id only; the feed and chat have their names, for a panel opened after the event.
    knownUsername: (userId) => feed.usernameOf(userId) ?? chat.usernameOf(userId),
    onRedemptionsDecided: (ids, status) => {
      for (const id of ids) {
        const item = feed.setRedemptionStatus(id, status);
        if (item) {
          events.emit('kick:event', { kind: 'redemption', item: { ...item } });
        }
      }
    },
    log: deps.log,
  });
}
