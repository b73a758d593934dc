/**
 * The settings as the panel sees and edits them ({@link SettingsView}): the stored values, plus what the
 * configuration decided (the data dir, a client id given by environment, the sandbox's emote server).
 * The client secret goes to the SecretStore and only "there is one" ever reaches the panel.
 */
import { AppError } from '../../shared/errors';
import { fieldDetails } from '../../shared/field-refusal';
import { redirectUriProblem } from '../../shared/loopback-redirect';
import type { NotAppliedView, SettingsView } from '../../shared/views';
import type { SettingsPort } from '../ipc/handlers';
import { SECRET_KEYS, type SecretStore } from '../secrets/secret-store';
import type { AppConfig } from './config';
import { type BoundPorts, ownPorts } from './own-ports';
import type { SettingsStore } from './settings';

/** What the settings view is built from. */
export interface AppSettingsDeps {
  settings: SettingsStore;
  config: AppConfig;
  secretStore: SecretStore;
  /** The embedded sandbox serves its own emotes; null on Kick (the setting applies). */
  sandboxEmoteHost: string | null;
  /** The embedded sandbox's admin API and where its token is kept; null on Kick. */
  sandboxAdmin: SettingsView['sandbox'];
  /** Why saved settings are not in effect (the app host's answer); null while they are. */
  notApplied: () => NotAppliedView | null;
  /** Where this run listens now (a port 0 in the configuration is only known once bound). */
  boundPorts?: () => BoundPorts;
  /** Whether an OBS password is kept (app-obs.ts knows; the password itself never reaches a view). */
  obsHasPassword?: () => boolean;
}

/** The settings handlers' port: view, validated update, and credentials. */
export function createAppSettings(deps: AppSettingsDeps): SettingsPort {
  const { settings, config } = deps;
  let hasClientSecret = config.credentialSource.clientSecret !== 'none';
  const view = (): SettingsView => {
    const values = settings.values();
    return {
      clientId: config.credentialSource.clientId === 'env' ? config.clientId : values.clientId,
      hasClientSecret,
      redirectUri: values.redirectUri,
      tunnel: values.tunnel,
      wantedEvents: values.wantedEvents,
      scopes: values.scopes,
      dataDir: config.dataDir,
      notifications: values.notifications,
      chatScrollback: values.chatScrollback,
      lateAfterSec: values.lateAfterSec,
      emoteHost: deps.sandboxEmoteHost ?? values.emoteHost,
      sandbox: deps.sandboxAdmin,
      setupGuideDone: values.setupGuideDone,
      notApplied: deps.notApplied(),
      overlays: values.overlays,
      automod: values.automod,
      chatBot: values.chatBot,
      chatTools: values.chatTools,
      streamerMode: values.streamerMode,
      theme: values.theme,
      obs: { ...values.obs, hasPassword: deps.obsHasPassword?.() ?? false },
      obsActions: values.obsActions,
      history: { chatDays: values.history.chatDays },
      liveSocket: {
        enabled: values.liveSocket.enabled,
        channelId: values.liveSocket.channelId,
        chatroomId: values.liveSocket.chatroomId,
      },
    };
  };
  return {
    view,
    update(patch) {
      // The contract checked the URL's form; only this run knows which ports Greenroom itself holds.
      const clash =
        patch.redirectUri === undefined
          ? null
          : redirectUriProblem(patch.redirectUri, ownPorts(config, deps.boundPorts?.()));
      if (clash) {
        throw new AppError('InvalidArgument', `redirectUri: ${clash}`, {
          details: fieldDetails([{ field: 'redirectUri', reason: clash }]),
        });
      }
      settings.update(patch);
      return view();
    },
    async setCredentials({ clientId, clientSecret }) {
      // The secret first: a failing store (no encryption available) must not leave a half-configured app.
      await deps.secretStore.set(SECRET_KEYS.clientSecret, clientSecret);
      hasClientSecret = true;
      // settings:changed goes out through the store's listeners; the app host hears the same change and
      // builds the app again on the new credentials (electron/launch/app-host.ts).
      settings.setClientId(clientId);
      return view();
    },
  };
}
