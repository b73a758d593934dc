/**
 * The `foreign-channel` scenario: another Kick developer points their own app's webhooks at this app's
 * webhook URL. Kick signs every app's deliveries with the one key, so what arrives is real and signed, but
 * for another channel, under subscriptions this app never created. Greenroom must answer them and act on
 * none ([design notes](../../docs/design-notes.md#only-the-signed-in-channels-events)).
 *
 * The setup does what that developer would: registers their app with this app's webhook URL and
 * subscribes it, with its app token, to a follow and chat in a channel of their own. The steps then fire a
 * follow and chat lines there; the sandbox's normal delivery signs and sends them.
 */
import { subscribe } from '../api/event-subscriptions';
import type { SandboxContext } from '../context';
import type { SandboxApp } from '../state';
import { BOT_USER_ID, FIRST_OTHER_STREAMER_USER_ID } from '../world';
import { TriggerInputError } from './generate-context';
import { generateChatLine } from './generate-chat';
import { intBetween } from './random';
import type { ScenarioInput, ScenarioStep } from './scenario-steps';

/** The other developer's app (fixed, so running the scenario again reuses it). */
export const FOREIGN_CLIENT_ID = '01JF0RE1GNAPPC11ENT0000000';
/** What their deliveries are about: the first of the sandbox's other streamers. */
export const FOREIGN_CHANNEL_USER_ID = FIRST_OTHER_STREAMER_USER_ID;

const FOREIGN_EVENTS = ['channel.followed', 'chat.message.sent'] as const;

/** This app's webhook URL, or an input error: without one there is nothing for the other app to point at. */
function targetUrl(ctx: SandboxContext, targetBroadcasterUserId: number): string {
  if (ctx.app.webhookUrl === null) {
    throw new TriggerInputError('scenario: this app has no webhook URL for the other app to point at');
  }
  if (targetBroadcasterUserId === FOREIGN_CHANNEL_USER_ID) {
    throw new TriggerInputError(
      `broadcaster_user_id: ${FOREIGN_CHANNEL_USER_ID} is the other app's own channel; pick another`,
    );
  }
  return ctx.app.webhookUrl;
}

/** Registers (or refreshes) the other app and its subscriptions, pointed at this app's webhook URL now. */
export function setUpForeignApp(ctx: SandboxContext, targetBroadcasterUserId: number): SandboxApp {
  const { state } = ctx;
  const webhookUrl = targetUrl(ctx, targetBroadcasterUserId);
  let app = state.appByClientId(FOREIGN_CLIENT_ID);
  if (!app) {
    app = {
      appId: FOREIGN_CLIENT_ID,
      clientId: FOREIGN_CLIENT_ID,
      clientSecret: 'another-developers-secret',
      name: "Another developer's app",
      redirectUris: [],
      webhookUrl,
      webhooksEnabled: true,
      botUserId: BOT_USER_ID,
    };
    state.apps.set(app.clientId, app);
    ctx.log(`sandbox: registered "${app.name}" (${app.clientId}), webhooks to ${webhookUrl}`);
  }
  app.webhookUrl = webhookUrl;
  app.webhooksEnabled = true;
  const subscribed = new Set(
    [...state.subscriptions.values()]
      .filter((s) => s.clientId === FOREIGN_CLIENT_ID && s.broadcasterUserId === FOREIGN_CHANNEL_USER_ID)
      .map((s) => s.event),
  );
  for (const name of FOREIGN_EVENTS) {
    if (!subscribed.has(name)) {
      subscribe(state, app.appId, app.clientId, FOREIGN_CHANNEL_USER_ID, { name, version: 1 });
    }
  }
  return app;
}

/** Setup, then a follow and three chat lines in the other channel. */
export function foreignChannelSteps({ ctx, broadcasterUserId, rng }: ScenarioInput): ScenarioStep[] {
  // Checked now, so a scenario that cannot run is refused (400) rather than skipped step by step.
  targetUrl(ctx, broadcasterUserId);
  const elsewhere = (waitMs: number, step: Omit<ScenarioStep, 'waitMs'>): ScenarioStep => ({
    waitMs,
    broadcasterUserId: FOREIGN_CHANNEL_USER_ID,
    ...step,
  });
  // A command among the lines: a bot that heard another channel's chat would answer it in this one.
  const lines = ['!discord', generateChatLine(rng, ['hi chat', 'gg']), generateChatLine(rng, ['welcome', 'hype'])];
  return [
    { waitMs: 0, action: () => void setUpForeignApp(ctx, broadcasterUserId) },
    elsewhere(intBetween(rng, 200, 600), { type: 'channel.followed' }),
    ...lines.map((content) =>
      elsewhere(intBetween(rng, 200, 600), { type: 'chat.message.sent', options: { overrides: { content } } }),
    ),
  ];
}
