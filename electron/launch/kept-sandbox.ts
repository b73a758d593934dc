/**
 * The embedded sandbox, kept across the apps built in sandbox mode. The app host builds a new app when a
 * setting it was built from changes (app-host.ts); on the sandbox that is a new redirect URL or event list,
 * which must not cost the simulated channel, its address (the panel server's image policy names it) or the
 * sign-in (its tokens, kept under sandbox keys of the secret store). It closes when an app is built for
 * Kick, and at stop.
 */
import type { AppConfig } from '../app/config';
import type { SharedSandbox } from '../app/create-app';
import { startEmbeddedSandbox } from '../app/embedded-sandbox';
import type { Clock } from '../core/clock';
import { sandboxTokenStore } from '../app/sandbox-tokens';
import type { SecretStore } from '../secrets/secret-store';

export interface KeptSandbox {
  /** The sandbox for an app built on `config`: the running one, a new one, or none (closing it) on Kick. */
  lend(config: AppConfig): Promise<SharedSandbox | null>;
  close(): Promise<void>;
}

export function keepSandbox(deps: {
  clock: Clock;
  log: (line: string) => void;
  notice?: (line: string) => void;
  secretStore: SecretStore;
}): KeptSandbox {
  let kept: Promise<SharedSandbox> | null = null;
  const close = async (): Promise<void> => {
    const closing = kept;
    kept = null;
    const running = await closing?.catch(() => null);
    await running?.embedded.close();
  };
  return {
    async lend(config) {
      if (config.mode !== 'sandbox') {
        await close();
        return null;
      }
      const { clock, log, notice } = deps;
      kept ??= startEmbeddedSandbox(config, { clock, log, notice: notice ?? log }).then((embedded) => ({
        embedded,
        tokens: sandboxTokenStore(deps.secretStore, log),
      }));
      try {
        return await kept;
      } catch (error) {
        kept = null;
        throw error;
      }
    },
    close,
  };
}
