/**
 * What the sandbox ingest tests share: a real sandbox (its RTMP ingest on a free loopback port) with a
 * real webhook receiver subscribed to `livestream.status.updated`, and helpers that read the channel back
 * over the public API, as Greenroom would.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox, type SandboxOptions } from '../../../sandbox/index';
import type { KickChannel } from '../../../shared/kick/resources';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';
import { RtmpPublisher } from '../../helpers/rtmp-publisher';
import { subscribe } from './delivery-fixtures';
import { type Receiver, startReceiver } from './webhook-receiver';

// One key for the file: generating RSA-2048 per test would dominate the run time.
const keys = createSigningKeys();

export const fx = {} as {
  sandbox: Sandbox;
  receiver: Receiver;
  token: string;
  logs: string[];
  /** Every `livestream.status.updated` the sandbox announced, as it announced it. */
  statusEvents: { is_live: boolean }[];
};

/** Registers the hooks: a sandbox delivering to a receiver, torn down after each test. */
export function useIngestSandbox(options: SandboxOptions = {}): void {
  beforeEach(async () => {
    fx.receiver = await startReceiver();
    fx.logs = [];
    fx.sandbox = await startSandbox({
      webhookUrl: fx.receiver.url,
      log: (line) => fx.logs.push(line),
      keys,
      ...options,
    });
    subscribe(fx.sandbox, 'livestream.status.updated');
    fx.statusEvents = [];
    fx.sandbox.ctx.state.onEvent((event) => {
      if (event.type === 'livestream.status.updated') {
        fx.statusEvents.push(event.payload as { is_live: boolean });
      }
    });
    fx.token = mintUserToken(fx.sandbox);
  });
  afterEach(async () => {
    await fx.sandbox.close();
    await fx.receiver.close();
  });
}

export function streamKey(userId = STREAMER_USER_ID): string {
  return fx.sandbox.ctx.state.channels.get(userId)!.streamKey;
}

/** The streamer's channel as `GET /public/v1/channels` answers it. */
export async function channel(): Promise<KickChannel> {
  const res = await call(fx.sandbox.urls.api, 'GET', '/public/v1/channels', { token: fx.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data[0] as KickChannel;
}

/** The status deliveries received so far, parsed. */
export interface StatusDelivery {
  is_live: boolean;
  started_at: string;
  ended_at: string | null;
}

export function statusDeliveries(): StatusDelivery[] {
  return fx.receiver.requests
    .filter((r) => r.headers['kick-event-type'] === 'livestream.status.updated')
    .map((r) => JSON.parse(r.body.toString('utf8')) as StatusDelivery);
}

/** Resolves with the next `livestream.status.updated` the sandbox announces (register before acting). */
export function nextStatus(): Promise<{ is_live: boolean }> {
  return new Promise((resolve) => {
    const stop = fx.sandbox.ctx.state.onEvent((event) => {
      if (event.type === 'livestream.status.updated') {
        stop();
        resolve(event.payload as { is_live: boolean });
      }
    });
  });
}

/** Connects, publishes `key` and returns the publisher and the server's status code. */
export async function publishWith(key: string): Promise<{ publisher: RtmpPublisher; code: string }> {
  const { publisher, connect } = await RtmpPublisher.connect(fx.sandbox.urls.rtmp);
  expect(connect.name).toBe('_result');
  const { code } = await publisher.publish(key);
  return { publisher, code };
}

/** A good publisher goes live and back: proof the ingest still serves after whatever came before. */
export async function expectGoodPublisherWorks(): Promise<void> {
  const { publisher, code } = await publishWith(streamKey());
  expect(code).toBe('NetStream.Publish.Start');
  expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(true);
  const offline = nextStatus();
  publisher.unpublish(streamKey());
  expect((await offline).is_live).toBe(false);
  await publisher.close();
  expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(false);
}
