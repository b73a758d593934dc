/**
 * The webhook side assembled: journal → dedup memory → receiver → bus, with the tunnel in front, the
 * subscription reconciler keeping Kick's subscriptions right, and delivery lag measured. On start the
 * journal is replayed so the feed and chat come back and Kick's redeliveries are recognised.
 *
 * Only the channel Greenroom acts for is let through ([design notes](../../docs/design-notes.md#only-the-signed-in-channels-events)):
 * the reconciler tells the channel gate which subscriptions it holds, and the gate's knowledge is saved
 * in the data dir so a restart can judge deliveries before Kick's list is read again.
 */
import { join } from 'node:path';
import type { KickEventType } from '../../shared/kick/scopes';
import type { HealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { SetTimer } from '../core/scheduler';
import { broadcasterOf } from './receive/channel-check';
import { type ChannelGate, createChannelGate } from './receive/channel-gate';
import { createDeliveryDedup, DEFAULT_ID_RETENTION_MS, type DeliveryDedup } from './dedup/dedup';
import { createDeliveryLag, type DeliveryLag } from './events/delivery-lag';
import { createEventBus, type EventBus } from './events/event-bus';
import { eventKeyOf } from './events/event-key';
import { eventTimeOf } from './events/event-time';
import { openHeldSubscriptionsFile } from './subscriptions/held-subscriptions-file';
import type { IdMemoryDeps } from './dedup/id-memory';
import { createFileJournal, type FileJournal, type FsyncPolicy, replayJournal } from './journal/journal';
import { parseKickEvent } from './events/parse-event';
import { createSocketFirst, type TrailView } from './dedup/socket-first';
import { createSignedCopies, LIVE_SOCKET_SOURCE, readBackChat } from './dedup/signed-copy';
import { createPublicKeyCache } from './receive/public-key-cache';
import { createWebhookReceiver, DEFAULT_WEBHOOK_PATH, type WebhookReceiver } from './receive/receiver';
import {
  createSubscriptionReconciler,
  type SubscriptionClient,
  type SubscriptionReconciler,
} from './subscriptions/subscription-reconciler';
import { createTunnel, type CreateTunnelDeps } from './tunnel/create-tunnel';
import type { Tunnel } from './tunnel/tunnel';
import type { JournalRecord, KickEvent } from './events/types';
import { Listeners } from '../../shared/listeners';
import { plural } from '../../shared/plural';

export interface WebhookServiceConfig {
  dataDir: string;
  /** Receiver port on 127.0.0.1 (`GREENROOM_WEBHOOK_PORT`; 0 picks a free one). */
  port: number;
  path?: string;
  replayWindowSeconds?: number;
  /** `GREENROOM_TUNNEL`: localtunnel (default), off, or a public https URL. */
  tunnel?: string;
  tunnelHost?: string;
  /** The install's stable tunnel subdomain. */
  subdomain: string;
  wantedEvents: readonly KickEventType[];
  fsync?: FsyncPolicy;
  /** The journal's rollover (`GREENROOM_JOURNAL_SEGMENT_KB`, `GREENROOM_JOURNAL_SEGMENTS`); the journal's defaults if absent. */
  journal?: { segmentBytes?: number; segments?: number };
  /** How many past events `restore()` hands back for the panel (the newest). */
  historyLimit?: number;
  /** The id memory's sizes (tests make them small to reach the spill path). */
  idMemory?: Pick<IdMemoryDeps, 'maxMemoryBytes' | 'runMaxIds' | 'runMaxSpanMs'>;
  /** How long a delivery the channel gate cannot judge yet waits before a 503 (tests shorten it). */
  holdMs?: number;
}

export interface WebhookServiceDeps {
  clock: Clock;
  log: (line: string) => void;
  /** Kick's signing key (in the app: the Kick client's fetchPublicKey). */
  fetchPublicKey: () => Promise<string>;
  tunnel?: Pick<CreateTunnelDeps, 'setTimer' | 'selfCheckRoute' | 'random'>;
  /** The receiver's hand-over at the end of a turn (`receiver.ts`); tests step it by hand. */
  handOverSchedule?: (run: () => void) => void;
  /**
   * Whether the app's logger writes `debug` lines (`GREENROOM_LOG_LEVEL=debug`); default no, as the logger's
   * own default. Off, a debug line is neither built nor handed to `log`: the receiver says one for every
   * duplicate delivery, and in a chat storm every line is one ([decisions](../../docs/decisions.md#a-debug-line-is-built-only-when-read)).
   */
  debugLog?: () => boolean;
  /** Plans the journal's wait for company for lines no answer waits on (`journal.ts`); tests fire it by hand. */
  journalTimer?: SetTimer;
}

export type WebhookHealth = Omit<HealthView, 'mode' | 'secretStore'>;

export interface WebhookService {
  /**
   * Opens the journal and reads it back (once; later calls resolve with the same value): the dedup memory
   * is refilled and the restored events returned, with the only way to start the receiver and the tunnel.
   */
  restore(): Promise<RestoredWebhookService>;
  /** Stops the reconciler, tunnel and receiver and closes the journal; safe before, during or after start. */
  stop(): Promise<void>;
  bus: EventBus;
  health(): WebhookHealth;
  onHealthChange(listener: () => void): () => void;
  /** Keeps Kick's subscriptions for this broadcaster at exactly the wanted set (call after sign-in). */
  manageSubscriptions(client: SubscriptionClient, broadcasterUserId: number): void;
  /** The local receiver's URL (what the tunnel forwards to). */
  receiverUrl(): string | null;
  /** The URL to paste into Kick's dashboard. */
  webhookUrl(): string | null;
  /**
   * Journals an event the live socket brought first, under its event key, so the webhook that follows is a
   * copy however late it comes, this run or the next ([design notes](../../docs/design-notes.md#chat-from-the-live-socket-first)).
   * 'new' when it is to be shown; 'duplicate' when its webhook (or an earlier socket copy) came first;
   * 'closed' before restore() or after stop(). `payload` is the record's body already parsed, when the caller has
   * it: a chat line is then not parsed again.
   */
  recordLive(record: JournalRecord, eventKey: string, payload?: unknown): 'new' | 'duplicate' | 'closed';
  /** How far the webhooks trail the live socket, over the chat lines both brought this run. */
  trail(): TrailView;
  /**
   * The journal for the stream history ([history](../../docs/history.md#crash-safety-and-rebuild)): `readAll`
   * after restore() (empty before), and each record once the journal has written it (a webhook before its
   * 200, a line from the live socket, Greenroom's own records), in the order written.
   */
  journal: {
    readAll(): Promise<JournalRecord[]>;
    onAppended(listener: (record: JournalRecord) => void): () => void;
  };
}

/** What `restore()` resolves with: the journal's events and the next step. */
export interface RestoredWebhookService {
  /** Events restored from the journal, oldest first (at most `historyLimit`). */
  events: KickEvent[];
  /** Starts the receiver and, in the background, the tunnel (once). */
  start(): Promise<void>;
}

/**
 * The dedup memory in the data dir's `dedup/`, remembering ids for Kick's retry horizon or the replay
 * window, whichever is longer. If that dir cannot be used (read-only, damaged) the ids are kept in memory
 * only, which is said once: redeliveries are still caught until the next restart, and nothing is lost.
 */
function openDeliveryDedup(config: WebhookServiceConfig, log: (line: string) => void): DeliveryDedup {
  const dir = join(config.dataDir, 'dedup');
  const retentionMs = Math.max(DEFAULT_ID_RETENTION_MS, (config.replayWindowSeconds ?? 0) * 1000);
  const ids = { retentionMs, ...config.idMemory, log };
  try {
    return createDeliveryDedup({ ids: { ...ids, dir } });
  } catch (error) {
    log(`webhooks: could not open the dedup memory in ${dir} (${String(error)}); keeping it in memory for this run`);
    return createDeliveryDedup({ ids: { ...ids, dir: null } });
  }
}

export function createWebhookService(config: WebhookServiceConfig, deps: WebhookServiceDeps): WebhookService {
  const path = config.path ?? DEFAULT_WEBHOOK_PATH;
  const debugLog = deps.debugLog ?? (() => false);
  const bus = createEventBus({ log: deps.log });
  const lag: DeliveryLag = createDeliveryLag({ clock: deps.clock, log: deps.log });
  const listeners = new Listeners<[]>((error) => deps.log(`webhooks: health listener failed: ${String(error)}`));
  const changed = (): void => listeners.emit();
  lag.onChange(changed);
  const publicKey = createPublicKeyCache({
    fetchPublicKey: deps.fetchPublicKey,
    clock: deps.clock,
    log: (level, message) => deps.log(`webhooks: ${level}: ${message}`),
  });
  let journal: FileJournal | null = null;
  let dedup: DeliveryDedup | null = null;
  let receiver: WebhookReceiver | null = null;
  let tunnel: Tunnel | null = null;
  let reconciler: SubscriptionReconciler | null = null;
  let local: { url: string; port: number } | null = null;
  const held = openHeldSubscriptionsFile(config.dataDir, { log: deps.log, nowMs: () => deps.clock.now() });
  const gate: ChannelGate = createChannelGate(held.load());
  let restoring: Promise<RestoredWebhookService> | null = null;
  let starting: Promise<void> | null = null;
  let stopped = false;
  /** Epoch ms the last event of each type arrived in this run, for the broadcaster subscriptions are kept for. */
  const lastArrival = new Map<string, number>();
  let arrivalsFor: number | null = null;
  const socketFirst = createSocketFirst();
  /**
   * Chat lines the live socket brought first and kept this run: received too, though their webhook is a repeat. Not
   * the other records `recordLive` journals (an ad break Greenroom ran, a late mark, a raid): no webhook copies them.
   * A line stops counting here when its signed copy takes its place (then the receiver counts it) or its journal
   * write fails (then its webhook will be new).
   */
  let fromLiveSocket = 0;
  const uncountSocketLine = (): void => {
    fromLiveSocket = Math.max(0, fromLiveSocket - 1);
    changed();
  };
  // The socket's chat lines by key, so a signed webhook that says otherwise wins (signed-copy.ts).
  const signedCopies = createSignedCopies();
  const appended = new Listeners<[JournalRecord]>((error) =>
    deps.log(`webhooks: a journal listener failed: ${String(error)}`),
  );
  /** The journal as the receiver and recordLive use it: each record is told once it is written, never before. */
  const announcing = (file: FileJournal): FileJournal => ({
    ...file,
    append: (record, when) => file.append(record, when).then(() => appended.emit(record)),
  });

  /** Opens the journal and replays it into the dedup memory and the history. */
  const restore = async (): Promise<RestoredWebhookService> => {
    const opened = announcing(
      await createFileJournal({
        dir: join(config.dataDir, 'journal'),
        fsync: config.fsync ?? 'batch',
        ...(deps.journalTimer ? { setTimer: deps.journalTimer } : {}),
        ...(config.journal?.segmentBytes === undefined ? {} : { maxSegmentBytes: config.journal.segmentBytes }),
        ...(config.journal?.segments === undefined ? {} : { maxSegments: config.journal.segments }),
        log: deps.log,
      }),
    );
    journal = opened;
    const memory = openDeliveryDedup(config, deps.log);
    dedup = memory;
    const events: KickEvent[] = [];
    const limit = config.historyLimit ?? 5_000;
    // Deliveries for another channel are not journaled; a journal from before that rule, or from a channel
    // signed in before this one, may hold some, and they are not shown again.
    const owner = gate.owner();
    let skipped = 0;
    await replayJournal(opened, {
      onRecord: (record) => {
        const event = parseKickEvent(record);
        memory.remember(record, eventKeyOf(record.type, event.payload));
        if (owner !== null && broadcasterOf(event.payload) !== owner) {
          skipped++;
          return;
        }
        if (record.type === 'chat.message.sent' && readBackChat(signedCopies, events, event)) {
          return;
        }
        events.push(event);
        if (events.length > limit * 2) {
          events.splice(0, events.length - limit);
        }
      },
      log: deps.log,
    });
    if (skipped > 0) {
      const what = plural(skipped, 'delivery', 'deliveries');
      deps.log(`webhooks: not restored from the journal: ${what} for another channel than ${owner}`);
    }
    return {
      events: events.slice(-limit),
      start: () => (starting ??= start(opened, memory)),
    };
  };

  /** Receiver first, then the tunnel in the background. Only reachable through restore(). */
  const start = async (opened: FileJournal, memory: DeliveryDedup): Promise<void> => {
    if (stopped) {
      throw new Error('webhook service already stopped');
    }
    receiver = createWebhookReceiver({
      port: config.port,
      path,
      clock: deps.clock,
      replayWindowSeconds: config.replayWindowSeconds,
      publicKey,
      journal: opened,
      dedup: memory,
      gate,
      holdMs: config.holdMs,
      handOverSchedule: deps.handOverSchedule,
      onRefused: changed,
      onDuplicateEvent: ({ eventKey, type, nowMs, payload }) => {
        // The duplicates counter moved, and perhaps the trail behind the live socket. A webhook the socket
        // came before still says its type arrives and how late Kick delivers, as a new delivery's would.
        if (socketFirst.noteWebhook(eventKey, nowMs) !== null) {
          lastArrival.set(type, nowMs);
          const createdAt = (payload as { created_at?: unknown } | null)?.created_at;
          if (typeof createdAt === 'string') {
            lag.record(createdAt, nowMs, 'event');
          }
        }
        changed();
      },
      signedOver: (eventKey, payload) =>
        signedCopies.differs(payload)
          ? (kept) => {
              if (kept) {
                const countedThisRun = signedCopies.signed(payload);
                socketFirst.noteWebhook(eventKey, deps.clock.now());
                if (countedThisRun) {
                  uncountSocketLine();
                }
              }
            }
          : null,
      onEvent: (event) => {
        // Per type, so Health can say "Arriving" only once one did ([design notes](../../docs/design-notes.md#events-arriving-or-only-subscribed)).
        lastArrival.set(event.type, event.receivedAtMs);
        const started = eventTimeOf(event);
        lag.record(started.at, event.receivedAtMs, started.source);
        changed();
        bus.publish(event);
      },
      debugRead: debugLog,
      log: (level, message, fields) => {
        if (level !== 'debug' || debugLog()) {
          deps.log(`webhooks: ${level}: ${message} ${JSON.stringify(fields)}`);
        }
      },
    });
    local = await receiver.start();
    const { port } = local;
    tunnel = createTunnel(
      {
        tunnel: config.tunnel,
        tunnelHost: config.tunnelHost,
        subdomain: config.subdomain,
        localPort: port,
        receiverPath: path,
      },
      { clock: deps.clock, log: deps.log, ...deps.tunnel },
    );
    tunnel.onStatus(changed);
    // The tunnel comes up in the background: events still reach the receiver through it once it is up,
    // and start-up never waits on a remote server.
    tunnel.start().catch((error: unknown) => deps.log(`webhooks: tunnel failed to start: ${String(error)}`));
    changed();
  };

  return {
    bus,
    restore: () => (restoring ??= restore()),
    async stop() {
      stopped = true;
      // Let a restore or start in progress finish, so what they opened is closed here.
      await restoring?.catch(() => undefined);
      await starting?.catch(() => undefined);
      reconciler?.stop();
      await tunnel?.stop();
      await receiver?.stop();
      await bus.idle();
      await journal?.close();
      dedup?.close();
    },
    health() {
      const status = tunnel?.status() ?? { state: 'off' as const };
      const snapshot = lag.snapshot();
      const counters = receiver?.counters ?? { accepted: 0, duplicates: 0, rejected: 0, foreign: 0 };
      return {
        tunnel: status,
        webhookUrl: this.webhookUrl(),
        subscriptions: (reconciler?.status() ?? []).map((s) => ({
          type: s.type,
          state: s.state,
          ...(s.error ? { error: s.error.message } : {}),
          lastArrivalMs: lastArrival.get(s.type) ?? null,
        })),
        lag: {
          samples: snapshot.samples,
          p50Ms: snapshot.p50Ms,
          p95Ms: snapshot.p95Ms,
          state: snapshot.state,
          delayMs: snapshot.delayMs,
        },
        receiver: { port: local?.port ?? null, url: local?.url ?? null },
        counters: {
          accepted: counters.accepted,
          duplicates: counters.duplicates,
          rejected: counters.rejected,
          foreign: counters.foreign,
          fromLiveSocket,
        },
      };
    },
    onHealthChange(listener) {
      return listeners.add(listener);
    },
    manageSubscriptions(client, broadcasterUserId) {
      reconciler?.stop();
      if (arrivalsFor !== broadcasterUserId) {
        lastArrival.clear();
        arrivalsFor = broadcasterUserId;
      }
      gate.setOwner(broadcasterUserId);
      held.save(gate.snapshot());
      reconciler = createSubscriptionReconciler({
        client,
        broadcasterUserId,
        wanted: config.wantedEvents,
        clock: deps.clock,
        log: deps.log,
        onStatus: changed,
        onRun: {
          started: () => gate.reconcileStarted(),
          ended: (ids) => {
            gate.reconcileEnded(broadcasterUserId, ids);
            held.save(gate.snapshot());
          },
        },
      });
      reconciler.start();
    },
    recordLive(record, eventKey, payload) {
      if (stopped || journal === null || dedup === null) {
        return 'closed';
      }
      const claim = dedup.claim(record.messageId, record.bodyHash, record.receivedAtMs, eventKey);
      if (claim.verdict !== 'new') {
        return 'duplicate';
      }
      socketFirst.noteSocket(eventKey, record.receivedAtMs);
      const socketLine = record.type === 'chat.message.sent' && record.subscriptionId === LIVE_SOCKET_SOURCE;
      if (socketLine) {
        fromLiveSocket++;
        changed();
      }
      if (record.type === 'chat.message.sent') {
        signedCopies.socketLine(payload ?? JSON.parse(record.body));
      }
      // Webhooks journaled this turn but not shown yet are shown first: the line goes after them in the
      // journal, so it must on screen too, or a restart would bring them back in another order.
      receiver?.handOverNow();
      // Shown before the write is durable, like a webhook's line: a failed write only leaves the webhook to
      // bring it again, and the chat history knows the line by its id. A chat line may wait for the lines after it
      // and share their sync, since its webhook copy answers only once it is durable (the dedup claim) and Kick
      // sends that copy again until then. Greenroom's own records have no copy anywhere: written at once.
      journal.append(record, socketLine ? 'soon' : 'now').then(
        () => claim.settle(true),
        (error: unknown) => {
          claim.settle(false);
          if (socketLine) {
            uncountSocketLine();
          }
          deps.log(`webhooks: a line from the live socket could not be journaled: ${String(error)}`);
        },
      );
      return 'new';
    },
    trail: () => socketFirst.trail(),
    journal: {
      readAll: () => journal?.readAll() ?? Promise.resolve([]),
      onAppended: (listener) => appended.add(listener),
    },
    receiverUrl: () => local?.url ?? null,
    webhookUrl() {
      const base = tunnel?.publicUrl() ?? null;
      return base ? `${base.replace(/\/$/, '')}${path}` : null;
    },
  };
}
