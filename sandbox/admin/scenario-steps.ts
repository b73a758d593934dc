/**
 * The step lists behind the named scenarios: which events fire, with what steering, and how far apart.
 * Each builder returns a finite list, except simulated activity, which is an endless generator.
 */
import { toRfc3339 } from '../../electron/core/clock';
import type { KickEventType } from '../../shared/kick/scopes';
import type { SandboxContext } from '../context';
import { hostFrames } from '../live-socket/frames';
import type { TriggerOptions } from '../triggers';
import { FIRST_OTHER_STREAMER_USER_ID } from '../world';
import { activeViewers } from './generate-context';
import { generateChatLine } from './generate-chat';
import { createDefaultReward, redeemableRewards } from './generate-redemption';
import { chance, intBetween, pick, type Rng, sample, weighted } from './random';
import { RAID_LINES, STORM_LINES } from './vocabulary';

/** One step of a scenario: wait, then run an action and/or fire one trigger. */
export interface ScenarioStep {
  /** Milliseconds to wait before this step (ignored for the first). */
  waitMs: number;
  type?: KickEventType;
  options?: Omit<TriggerOptions, 'broadcasterUserId' | 'rng'>;
  /** The channel this step's event happens in, when not the scenario's (another channel's activity). */
  broadcasterUserId?: number;
  /** A state change with no event of its own (a raid's viewers arriving, rewards being set up). */
  action?: (ctx: SandboxContext) => void;
}

/** What a scenario's steps are built from. */
export interface ScenarioInput {
  ctx: SandboxContext;
  broadcasterUserId: number;
  rng: Rng;
}

/** Many messages fast: loud one-liners with emotes, mixed with ordinary chat and replies. */
export function chatStormSteps({ rng }: ScenarioInput): ScenarioStep[] {
  return Array.from({ length: 80 }, () =>
    chance(rng, 0.5)
      ? {
          waitMs: intBetween(rng, 30, 150),
          type: 'chat.message.sent',
          options: { overrides: { content: generateChatLine(rng, STORM_LINES) } },
        }
      : { waitMs: intBetween(rng, 30, 150), type: 'chat.message.sent' },
  );
}

/** New subs, renewals and gifts in a row, with chat cheering them on. */
export function subTrainSteps({ rng }: ScenarioInput): ScenarioStep[] {
  const steps: ScenarioStep[] = [];
  for (let i = 0; i < 12; i++) {
    const type = weighted<KickEventType>(rng, [
      ['channel.subscription.new', 5],
      ['channel.subscription.renewal', 3],
      ['channel.subscription.gifts', 2],
    ]);
    steps.push({ waitMs: intBetween(rng, 1200, 3000), type });
    if (chance(rng, 0.4)) {
      steps.push({
        waitMs: intBetween(rng, 200, 600),
        type: 'chat.message.sent',
        options: { overrides: { content: generateChatLine(rng, ['SUB TRAIN', 'W sub', 'choo choo', 'HYPE']) } },
      });
    }
  }
  return steps;
}

/** Many pending redemptions spread over several rewards (default ones are created when there are few). */
export function redemptionWaveSteps({ ctx, broadcasterUserId, rng }: ScenarioInput): ScenarioStep[] {
  const setUp: ScenarioStep = {
    waitMs: 0,
    action: () => {
      while (redeemableRewards(ctx.state, broadcasterUserId).length < 3) {
        if (!createDefaultReward(ctx.state, broadcasterUserId, ctx.app.clientId)) {
          break;
        }
      }
    },
  };
  const redemptions = Array.from({ length: 18 }, (): ScenarioStep => ({
    waitMs: intBetween(rng, 250, 900),
    type: 'channel.reward.redemption.updated',
  }));
  return [setUp, ...redemptions];
}

/** Spam from several viewers, each followed by a ban or a timeout. */
export function banWaveSteps({ ctx, broadcasterUserId, rng }: ScenarioInput): ScenarioStep[] {
  const targets = sample(rng, activeViewers(ctx.state, broadcasterUserId), 6);
  const now = ctx.state.now();
  return targets.flatMap((userId, i): ScenarioStep[] => [
    {
      waitMs: intBetween(rng, 400, 1200),
      type: 'chat.message.sent',
      options: {
        overrides: {
          'sender.user_id': userId,
          content: pick(rng, ['FREE FOLLOWERS at spam.invalid', 'CHECK MY CHANNEL!!!', 'buy cheap views now']),
        },
      },
    },
    {
      waitMs: intBetween(rng, 300, 900),
      type: 'moderation.banned',
      options: {
        overrides: {
          'banned_user.user_id': userId,
          'metadata.reason': 'spam',
          // Every other one is a timeout; a 10 minute end stays in the future for the whole wave.
          'metadata.expires_at': i % 2 === 1 ? toRfc3339(now + 10 * 60_000) : null,
        },
      },
    },
  ]);
}

/** Another streamer raids: viewers arrive (if live), follow, and flood chat with the raid call. */
export function raidSteps({ ctx, broadcasterUserId, rng }: ScenarioInput): ScenarioStep[] {
  const raiders = [...ctx.state.channels.values()].filter(
    (c) => c.broadcasterUserId >= FIRST_OTHER_STREAMER_USER_ID && c.broadcasterUserId !== broadcasterUserId,
  );
  const raiderChannel = raiders.length > 0 ? pick(rng, raiders) : undefined;
  const raider = raiderChannel?.slug ?? 'a_friend';
  const arrive: ScenarioStep = {
    waitMs: 0,
    action: () => {
      // Only Kick's live socket announces a raid ([sandbox](../../docs/sandbox.md#live-socket-triggers)): the
      // raiding channel's viewers, in StreamHostEvent and its twin.
      const raiderUser = raiderChannel ? ctx.state.user(raiderChannel.broadcasterUserId) : undefined;
      if (raiderChannel && raiderUser) {
        const host = { userId: raiderUser.userId, username: raiderUser.username, viewers: raiderChannel.viewerCount };
        for (const frame of hostFrames(broadcasterUserId, { ...host, message: null }, ctx.state.now())) {
          ctx.state.emitLive(frame);
        }
      }
      const channel = ctx.state.channels.get(broadcasterUserId);
      if (!channel?.isLive) {
        return;
      }
      const arriving = intBetween(rng, 150, 900);
      channel.viewerCount += arriving;
      const category = ctx.state.categories.get(channel.categoryId);
      if (category) {
        category.viewerCount += arriving;
      }
    },
  };
  const burst: ScenarioStep[] = [];
  for (let i = 0; i < 36; i++) {
    if (i % 3 === 1) {
      burst.push({ waitMs: intBetween(rng, 60, 250), type: 'channel.followed' });
    } else {
      const content = `${pick(rng, RAID_LINES)} ${raider} ${generateChatLine(rng, ['', 'PogU', 'hype'])}`.trim();
      burst.push({ waitMs: intBetween(rng, 60, 250), type: 'chat.message.sent', options: { overrides: { content } } });
    }
  }
  return [arrive, ...burst];
}

/**
 * The gentle, endless background Greenroom's embedded sandbox runs: chat every few seconds, now and then
 * a follow, a sub, KICKs or a redemption.
 */
export function* simulatedActivitySteps({ rng }: ScenarioInput): Generator<ScenarioStep, never> {
  for (;;) {
    const type = weighted<KickEventType>(rng, [
      ['chat.message.sent', 80],
      ['channel.followed', 6],
      ['channel.subscription.new', 3],
      ['channel.subscription.renewal', 2],
      ['channel.subscription.gifts', 1.5],
      ['kicks.gifted', 3],
      ['channel.reward.redemption.updated', 3],
    ]);
    yield { waitMs: intBetween(rng, 2000, 6000), type };
  }
}
