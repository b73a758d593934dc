/**
 * Whether Kick's events can reach Greenroom right now, said plainly where the streamer looks (the chat
 * pane), with what to do; and how late they arrive when Kick holds them back. Kick delivers events only
 * as webhooks, so on Kick a dead tunnel or a missing subscription means dead chat with no other sign. In
 * sandbox mode the embedded sandbox delivers straight to the local receiver, so the tunnel being off is
 * the normal state there, not a problem.
 */
import type { HealthView } from '../../../shared/views';

/** Why no events can arrive, and what to do about it. */
export interface NoEventsReason {
  text: string;
  action: string;
}

const CHAT = 'chat.message.sent';

/**
 * Whether Kick's live chat connection brings chat right now: then a webhook problem stops follows, subs and the
 * other alerts, not chat ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)).
 */
const chatIsLive = (health: HealthView): boolean => health.liveSocket?.state === 'connected';

/** A reason, with what it stops when chat comes over the live connection anyway. */
interface WebhookReason extends NoEventsReason {
  /** The same reason as a clause after "follows, subs, KICKs and redemptions cannot arrive: ". */
  whileChatIsLive: string;
}

/** Null while events can arrive (or health is not known yet); else why not, in the streamer's words. */
export function whyNoEvents(health: HealthView | null, signedIn: boolean): NoEventsReason | null {
  const reason = whyNoWebhooks(health, signedIn);
  if (reason === null) {
    return null;
  }
  if (health === null || !signedIn || !chatIsLive(health)) {
    return { text: reason.text, action: reason.action };
  }
  // Chat still comes over the live connection: say what is missing instead of "nothing arrives".
  return { text: reason.whileChatIsLive, action: reason.action };
}

const ALERTS_CANNOT = "Chat arrives over Kick's live chat connection, but follows, subs, KICKs and redemptions cannot:";

function whyNoWebhooks(health: HealthView | null, signedIn: boolean): WebhookReason | null {
  if (!health) {
    return null;
  }
  if (!signedIn) {
    const text = 'Chat cannot arrive yet: Greenroom subscribes to your channel’s events when you sign in.';
    return { text, action: 'Sign in with Kick.', whileChatIsLive: text };
  }
  const tunnel = health.tunnel;
  if (health.mode === 'kick') {
    switch (tunnel.state) {
      case 'off':
        if (health.subscriptions.some((s) => (s.lastArrivalMs ?? null) !== null)) {
          // Events did arrive with the tunnel off: the streamer forwards them another way (their own proxy,
          // or the webhook URL set in Kick's dashboard), so "no address" would be untrue.
          break;
        }
        return {
          text: 'No events can arrive: the tunnel is off, so Kick has no address to deliver chat and alerts to.',
          action: 'Turn the tunnel on in Settings, or enter the public URL of your own tunnel or proxy there.',
          whileChatIsLive: `${ALERTS_CANNOT} the tunnel is off, so Kick has no address to deliver them to.`,
        };
      case 'down': {
        const retry = `Greenroom retries in ${Math.ceil(tunnel.retryInMs / 1000)} s.`;
        return {
          text: `No events can arrive: the tunnel is down (${tunnel.reason}). ${retry}`,
          action: 'Check your internet connection; Health shows the tunnel’s state.',
          whileChatIsLive: `${ALERTS_CANNOT} the tunnel is down (${tunnel.reason}). ${retry}`,
        };
      }
      case 'connecting':
        return {
          text: 'The tunnel is connecting; events arrive once it is up.',
          action: 'Wait a moment. If it keeps retrying, check your internet connection.',
          whileChatIsLive: `${ALERTS_CANNOT} the tunnel is still connecting.`,
        };
      case 'up':
        if (tunnel.reachable === false) {
          return {
            text: 'Kick cannot reach Greenroom through the tunnel yet, so events are not arriving.',
            action: 'Open Health for the webhook URL and check it; Greenroom keeps testing it.',
            whileChatIsLive: `${ALERTS_CANNOT} Kick cannot reach Greenroom through the tunnel yet.`,
          };
        }
        break;
    }
  }
  const chat = health.subscriptions.find((s) => s.type === CHAT);
  if (health.subscriptions.length > 0 && !chat) {
    return {
      text: 'Greenroom is not subscribed to chat messages, so Kick will not send them.',
      action: 'Add chat messages to the wanted events in Settings.',
      whileChatIsLive:
        "Chat arrives over Kick's live chat connection only: Greenroom is not subscribed to chat messages on Kick.",
    };
  }
  if (chat && chat.state !== 'active') {
    const error = chat.error ? ` (${chat.error})` : '';
    return {
      text: `Not subscribed to chat on Kick${error}, so chat messages will not arrive.`,
      action: 'Greenroom keeps retrying; Health shows each subscription and what Kick answered.',
      whileChatIsLive: `Chat arrives over Kick's live chat connection only: not subscribed to chat on Kick${error}.`,
    };
  }
  return null;
}

/** "Kick is delaying events by N min" while the lag says Kick holds events back; null otherwise. */
export function lagBannerText(health: HealthView | null): string | null {
  if (health?.lag.state !== 'delayed') {
    return null;
  }
  const delayMs = health.lag.delayMs ?? health.lag.p50Ms;
  if (delayMs === null) {
    return chatIsLive(health)
      ? "Kick is delaying events: chat arrives live over Kick's live chat connection; alerts arrive late. Nothing is lost."
      : 'Kick is delaying events: chat and alerts arrive late. Nothing is lost.';
  }
  const span =
    delayMs >= 60_000 ? `${Math.round(delayMs / 60_000)} min` : `${Math.max(1, Math.round(delayMs / 1000))} s`;
  if (chatIsLive(health)) {
    return `Kick is delaying events by ${span}: chat arrives live over Kick's live chat connection; alerts arrive that late. Nothing is lost.`;
  }
  return `Kick is delaying events by ${span}: chat and alerts arrive that late. Nothing is lost.`;
}
