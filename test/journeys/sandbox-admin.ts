/**
 * The Kick sandbox from outside the app, as a developer drives it: its admin API over HTTP with the admin
 * token (sandbox/admin/*), either the app's embedded sandbox (found through the `sandbox.json` the
 * running app writes in its data dir) or a standalone `npm run sandbox` in its own process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { type AppRun, cleanEnv, spawnTracked } from './app-process';
import { exited, type OutputLines } from './output-lines';
import type { SandboxDescription } from '../../sandbox/index';

/** The sandbox streamer (sandbox/world.ts). */
export const STREAMER_USER_ID = 100001;

/** Calls to one sandbox's admin API. */
export class SandboxAdmin {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  /** A JSON call; a non-2xx answer throws with the sandbox's message. */
  async call<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const res = await request(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) {
      throw new Error(`sandbox admin ${method} ${path}: ${res.statusCode} ${text}`);
    }
    return JSON.parse(text) as T;
  }

  /** A viewer's chat message in the streamer's channel; resolves with its message id. */
  async chat(content: string, userId: number): Promise<string> {
    const answer = await this.call<{ message_id: string }>('POST', `/channels/${STREAMER_USER_ID}/chat`, {
      content,
      user_id: userId,
    });
    return answer.message_id;
  }

  /** Fires `count` events of one type at once; resolves with their payloads. */
  async trigger(type: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const answer = await this.call<{ events: { payload: Record<string, unknown> }[] }>(
      'POST',
      `/trigger/${type}`,
      body,
    );
    return answer.events.map((event) => event.payload);
  }

  /** How many event subscriptions the sandbox holds, and how many deliveries wait. */
  async counts(): Promise<{ eventSubscriptions: number; pendingDeliveries: number; deliveryAttempts: number }> {
    const answer = await this.call<{
      counts: { eventSubscriptions: number; pendingDeliveries: number; deliveryAttempts: number };
    }>('GET', '/');
    return answer.counts;
  }
}

/** The running app's embedded sandbox: its admin URL as printed, its token from `sandbox.json`. */
export async function embeddedSandbox(app: AppRun): Promise<SandboxAdmin> {
  const printed = await app.stdout.waitFor(/^Sandbox admin API: (\S+) /);
  const file = JSON.parse(readFileSync(join(app.dataDir, 'sandbox.json'), 'utf8')) as {
    adminUrl: string;
    adminToken: string;
  };
  if (file.adminUrl !== printed[1]) {
    throw new Error(`sandbox.json names ${file.adminUrl}, the app printed ${printed[1]}`);
  }
  return new SandboxAdmin(file.adminUrl, file.adminToken);
}

/** A standalone sandbox (what Kick is to a real install: it outlives the app's restarts). */
export interface StandaloneSandbox {
  admin: SandboxAdmin;
  /** The app's environment for talking to it (Kick URLs and the app's credentials). */
  appEnv: Record<string, string>;
  clientId: string;
  /** What it prints for the developer (its URLs, the ingest and the channel's stream key). */
  stderr: OutputLines;
  close(): Promise<void>;
}

/**
 * `npm run sandbox -- --port 0 …` in its own process; its first stdout line is the JSON description.
 * `redirectUri` and `webhookUrl` are registered for its app, as in Kick's developer dashboard.
 */
export async function startStandaloneSandbox(options: {
  redirectUri: string;
  webhookUrl: string;
  autoApprove?: boolean;
}): Promise<StandaloneSandbox> {
  // Its discovery file goes to a folder of its own, never to a streamer's real data dir.
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-sandbox-'));
  const args = [
    '--import',
    'tsx',
    'sandbox/cli.ts',
    '--port',
    '0',
    '--redirect-uri',
    options.redirectUri,
    '--webhook-url',
    options.webhookUrl,
    ...(options.autoApprove ? ['--auto-approve'] : []),
  ];
  const { child, stdout, stderr } = spawnTracked(process.execPath, args, cleanEnv({ GREENROOM_DATA_DIR: dataDir }));
  const first = await stdout.waitFor(/^\{.*\}$/, { describe: () => stderr.lines.join('\n') });
  const described = JSON.parse(first[0]) as SandboxDescription;
  return {
    admin: new SandboxAdmin(described.adminUrl, described.adminToken),
    clientId: described.clientId,
    stderr,
    appEnv: {
      GREENROOM_KICK_API_URL: described.apiUrl,
      GREENROOM_KICK_AUTH_URL: described.authUrl,
      // Kick's live socket is the sandbox's too, never the real one (docs/settings.md#kicks-live-chat-connection).
      GREENROOM_KICK_SOCKET_URL: described.socketUrl,
      GREENROOM_KICK_WEB_URL: described.webUrl,
      GREENROOM_CLIENT_ID: described.clientId,
      GREENROOM_CLIENT_SECRET: described.clientSecret,
    },
    async close() {
      child.kill('SIGTERM');
      await exited(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
