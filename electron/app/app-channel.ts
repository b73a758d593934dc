/**
 * The channel operations as the app wires them (services/channel-ops.ts): rewards this app may edit are
 * remembered in the settings, redeemers are named from the feed and chat, and a redemption decided in the
 * panel updates its feed entry for every panel. Every read of the channel, the panel's included, passes
 * through the live state (live-state.ts), so the header, the views and the chat bot hear the same answer.
 */
import type { ChangedView } from '../../shared/ipc-contract';
import type { KickAdBreakCreated, KickReward } from '../../shared/kick/resources';
import type { ChannelView } from '../../shared/views';
import type { KickClient } from '../kick/kick-client';
import type { AccountService } from '../services/account';
import { ChannelOps, type ChannelOpsDeps } from '../services/channel-ops';
import type { ChatHistory } from '../services/chat-history';
import type { Feed } from '../services/feed';
import type { AppEventEmitter } from '../core/app-events';
import type { LiveState } from './live-state';
import type { SettingsStore } from './settings';

/**
 * Channel operations whose channel reads are the live state's asks of Kick, and whose changes Kick sends no
 * event for (rewards, ads) are told to every panel, so a second dock shows a reward created in the window
 * ([design notes](../../docs/design-notes.md#views-follow-the-events)).
 */
export class AppChannelOps extends ChannelOps {
  readonly #live: Pick<LiveState, 'ask'>;
  readonly #changed: (view: ChangedView) => void;
  readonly #adBreakStarted: (seconds: number, id: string) => void;

  constructor(
    deps: ChannelOpsDeps,
    live: Pick<LiveState, 'ask'>,
    changed: (view: ChangedView) => void = () => {},
    adBreakStarted: (seconds: number, id: string) => void = () => {},
  ) {
    super(deps);
    this.#live = live;
    this.#changed = changed;
    this.#adBreakStarted = adBreakStarted;
  }

  override async createReward(fields: Parameters<ChannelOps['createReward']>[0]): Promise<KickReward> {
    const reward = await super.createReward(fields);
    this.#changed('rewards');
    return reward;
  }

  override async updateReward(id: string, patch: Parameters<ChannelOps['updateReward']>[1]): Promise<KickReward> {
    const reward = await super.updateReward(id, patch);
    this.#changed('rewards');
    return reward;
  }

  override async deleteReward(id: string): Promise<void> {
    await super.deleteReward(id);
    this.#changed('rewards');
  }

  override async enrollInAds(): Promise<void> {
    await super.enrollInAds();
    this.#changed('ads');
  }

  /**
   * Kick sends no event for an ad break, so Kick's acceptance of one Greenroom ran is when it starts, for the
   * OBS actions too ([OBS actions on events](../../docs/obs.md#obs-actions-on-events)), and the break the
   * recap counts ([the recap](../../docs/history.md#the-recap)).
   */
  override async runAdBreak(seconds: number): Promise<KickAdBreakCreated> {
    const started = await super.runAdBreak(seconds);
    this.#adBreakStarted(seconds, started.id);
    this.#changed('ads');
    return started;
  }

  /** Kick's channel as read, before the live state sees it (the live state's own asks). */
  readChannel(): Promise<ChannelView | null> {
    return super.streamInfo();
  }

  override streamInfo(): Promise<ChannelView | null> {
    return this.#live.ask(() => super.streamInfo());
  }
}

export function createAppChannel(deps: {
  client: KickClient;
  settings: SettingsStore;
  account: AccountService;
  feed: Feed;
  chat: ChatHistory;
  events: AppEventEmitter;
  live: Pick<LiveState, 'ask'>;
  log: (line: string) => void;
  /** Kick accepted an ad break Greenroom ran, by Kick's id (the OBS actions switch scene; it is journaled). */
  adBreakStarted?: (seconds: number, id: string) => void;
}): AppChannelOps {
  const { settings, feed, chat, events } = deps;
  return new AppChannelOps(
    {
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
    },
    deps.live,
    (view) => events.emit('views:changed', { view }),
    deps.adBreakStarted,
  );
}
