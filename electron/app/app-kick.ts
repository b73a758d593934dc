/**
 * The Kick side of one app: real Kick's endpoints and the streamer's secret store, or in sandbox mode the
 * embedded sandbox (started here, or the shared one the launch keeps across rebuilds) with its sign-in
 * opener and a token store of its own (sandbox-tokens.ts). The composition root (`create-app.ts`) builds the rest on it.
 */
import type { Kick } from '../kick/create-kick';
import { createKick } from '../kick/create-kick';
import type { AppDeps } from './app-deps';
import type { AppConfig } from './config';
import { type EmbeddedSandbox, startEmbeddedSandbox } from './embedded-sandbox';
import { sandboxTokenStore } from './sandbox-tokens';

export interface AppKick {
  kick: Kick;
  embedded: EmbeddedSandbox | null;
  /** Closes the embedded sandbox if this app started it (a shared one outlives the app). */
  closeOwnSandbox: () => Promise<void>;
}

export async function openAppKick(config: AppConfig, adapters: AppDeps): Promise<AppKick> {
  const { clock, log } = adapters;
  const shared = config.mode === 'sandbox' ? (adapters.sandbox ?? null) : null;
  const embedded: EmbeddedSandbox | null =
    config.mode === 'sandbox'
      ? (shared?.embedded ?? (await startEmbeddedSandbox(config, { clock, log, notice: adapters.notice ?? log })))
      : null;
  const closeOwnSandbox = async (): Promise<void> => {
    if (!shared) {
      await embedded?.close();
    }
  };
  try {
    const kick = createKick(
      {
        ...(embedded?.kickConfig ?? kickEndpoints(config)),
        redirectUri: config.redirectUri,
        scopes: config.scopes,
      },
      {
        clock,
        // The sandbox keeps its world, and so these tokens, across restarts (embedded-sandbox.ts).
        store: embedded ? (shared?.tokens ?? sandboxTokenStore(adapters.secretStore, log)) : adapters.secretStore,
        openExternal: embedded ? embedded.opener(adapters.openExternal) : adapters.openExternal,
        dispatcher: adapters.dispatcher,
      },
    );
    return { kick, embedded, closeOwnSandbox };
  } catch (error) {
    await closeOwnSandbox();
    throw error;
  }
}

/** Real Kick's endpoints and credentials; resolveConfig sets them whenever the mode is 'kick'. */
function kickEndpoints(config: AppConfig): NonNullable<AppConfig['kick']> {
  if (!config.kick) {
    throw new Error('createApp: a kick-mode config without Kick endpoints (use resolveConfig)');
  }
  return config.kick;
}
