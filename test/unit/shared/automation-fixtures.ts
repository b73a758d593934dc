/**
 * What the automation import tests share: a streamer's setup worth protecting (12 blocked terms, 5
 * commands, 2 timers, a reply on, an ad-break scene and a reward's source) and helpers that build a file and its bytes as the Export button writes
 * them.
 */
import { DEFAULT_AUTOMOD_SETTINGS, type AutomodSettings } from '../../../shared/automod';
import { DEFAULT_CHAT_BOT_SETTINGS, type ChatBotSettings } from '../../../shared/chat-bot';
import type { AutomationSetup, ImportPlan, ImportRefusal } from '../../../shared/automation-import';
import { obsActionsSettingsSchema, type ObsActionsSettings } from '../../../shared/obs-actions';

/** A setup a streamer has built up: what a bad import would destroy. */
export function streamerSetup(): AutomationSetup {
  const automod: AutomodSettings = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  automod.enabled = true;
  automod.blockedTerms.terms = Array.from({ length: 12 }, (_, i) => ({ pattern: `spam word ${i}`, kind: 'plain' }));
  const chatBot: ChatBotSettings = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
  chatBot.commands = ['discord', 'socials', 'uptime', 'specs', 'lurk'].map((name) => ({
    name,
    aliases: [],
    reply: `Here is ${name}`,
    permission: 'everyone',
    cooldownSec: 30,
    userCooldownSec: 0,
    sendAs: 'bot',
    enabled: true,
  }));
  chatBot.timers = [
    { message: 'Follow for more!', everySec: 900, minMessages: 10, enabled: true },
    { message: 'Join the discord', everySec: 1200, minMessages: 10, enabled: true },
  ];
  chatBot.replies.follow.enabled = true;
  const obsActions: ObsActionsSettings = obsActionsSettingsSchema.parse({
    adBreak: { enabled: true, scene: 'Ads' },
    rewards: [{ rewardId: 'rw-confetti', rewardTitle: 'Confetti', source: 'Confetti', scene: 'Main', seconds: 10 }],
  });
  return { automod, chatBot, obsActions };
}

/** A file as Export writes it, with `over` spread over the envelope. */
export function exportFile(setup: AutomationSetup, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'greenroom-automation', version: 1, ...structuredClone(setup), ...over };
}

/** A file's bytes, UTF-8. */
export const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Narrows a plan in a test: throws with the refusal's reason when it is one. */
export function accepted(plan: ImportPlan | ImportRefusal): ImportPlan {
  if (!plan.ok) {
    throw new Error(`expected a plan, got a refusal: ${plan.reason} (${plan.detail})`);
  }
  return plan;
}

/** Narrows a refusal in a test. */
export function refused(plan: ImportPlan | ImportRefusal | { ok: true; value: unknown }): ImportRefusal {
  if (plan.ok) {
    throw new Error('expected a refusal, got a plan');
  }
  return plan;
}
