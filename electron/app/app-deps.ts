/**
 * The outside world the app is built from, injected: Electron, the panel-only mode and tests each pass their own
 * (ARCHITECTURE.md#layers-inside-main). In a file of its own so the app's parts can name it without importing the
 * composition root that builds them.
 */
import type { Dispatcher } from 'undici';
import type { NotAppliedView, StartupNoticeView } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { DiagnosticsPort, ShellPort } from '../ipc/handlers';
import type { OpenExternal } from '../kick/auth/sign-in';
import type { ObsLinkFactory } from '../obs/obs-link';
import type { SecretStore } from '../secrets/secret-store';
import type { EmbeddedSandbox } from './embedded-sandbox';
import type { SettingsStore } from './settings';
import type { WebhookPortFactory } from './webhook-port';

/** A running embedded sandbox lent to each app built in sandbox mode, and where its tokens are kept. */
export interface SharedSandbox {
  embedded: EmbeddedSandbox;
  tokens: SecretStore;
}

/** The outside world, injected: Electron, the panel-only mode and tests each pass their own. */
export interface AppDeps {
  clock: Clock;
  /** The system browser (Electron's shell.openExternal; a scripted client in tests). */
  openExternal: OpenExternal;
  /** Where the client secret and, on real Kick, the tokens are kept. */
  secretStore: SecretStore & { backend?: string; degraded?: boolean };
  webhooks: WebhookPortFactory;
  log: (line: string) => void;
  /** A plain line for the streamer about a file in the data dir (the mod log moved aside); `log` when absent. */
  notice?: (line: string, details?: string) => void;
  /** What went wrong with the files at start, for the panel's snapshot (launch/startup-notices.ts). */
  notices?: () => StartupNoticeView[];
  dataDir: string;
  /** The settings the config was resolved from; opened in `dataDir` when omitted. */
  settings?: SettingsStore;
  /** Window actions; absent in panel-only mode. */
  shell?: ShellPort;
  /** "Save diagnostics" (docs/logging.md); absent where the entry keeps no log. */
  diagnostics?: DiagnosticsPort;
  /** The OBS dock URL once the panel server listens. */
  dockUrl?: () => string | null;
  /**
   * "Restart now": builds the app again from the settings as saved (electron/launch/app-host.ts). Absent
   * where no host runs the app (tests); the panel is then told a restart is not available.
   */
  restart?: () => Promise<void>;
  /** Why saved settings are not in effect (the app host's answer); null while they are. */
  notApplied?: () => NotAppliedView | null;
  /**
   * In sandbox mode, an embedded sandbox that is already running and the store its tokens live in: an app
   * built again for new settings then keeps the simulated channel, its address and the sign-in. The app
   * neither starts nor closes it (launch/launch-greenroom.ts does). Absent: the app runs its own.
   */
  sandbox?: SharedSandbox;
  dispatcher?: Dispatcher;
  /**
   * A fresh OBS link per session (docs/obs.md#connecting-to-obs): the real one on obs-websocket-js by default,
   * a fake in tests.
   */
  obsLink?: ObsLinkFactory;
}
