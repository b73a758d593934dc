/**
 * The sandbox's RTMP ingest over real TCP, with an RTMP client written apart from it: the right stream key
 * turns the channel live (signed `livestream.status.updated`, `is_live` on the channel API), ending the
 * publish turns it offline, a wrong key or a second publisher is refused and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { saveWorld } from '../../../sandbox/persist';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { startSandbox } from '../../helpers/sandbox';
import { RtmpPublisher } from '../../helpers/rtmp-publisher';
import { signatureVerifies } from './delivery-fixtures';
import {
  channel,
  expectGoodPublisherWorks,
  fx,
  nextStatus,
  publishWith,
  statusDeliveries,
  streamKey,
  useIngestSandbox,
} from './ingest-fixtures';

useIngestSandbox();

describe('sandbox RTMP ingest', () => {
  it('serves rtmp://127.0.0.1:<port>/app and gives it as the channel stream URL with the key', async () => {
    expect(fx.sandbox.urls.rtmp).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\/app$/);
    expect(fx.sandbox.urls.rtmp).toBe(`rtmp://127.0.0.1:${fx.sandbox.ingest.port}/app`);
    expect(fx.sandbox.describe().rtmpUrl).toBe(fx.sandbox.urls.rtmp);
    const stream = (await channel()).stream;
    expect(stream.url).toBe(fx.sandbox.urls.rtmp);
    expect(stream.key).toBe(streamKey());
  });

  it('goes live on publish with the right key, signed webhook and channel API agree, then offline', async () => {
    expect((await channel()).stream.is_live).toBe(false);
    const live = nextStatus();
    const { publisher, code } = await publishWith(streamKey());
    expect(code).toBe('NetStream.Publish.Start');
    expect((await live).is_live).toBe(true);
    const sent = publisher.sendMedia(20);

    await fx.receiver.waitForRequests(1);
    const request = fx.receiver.requests[0]!;
    expect(request.headers['kick-event-type']).toBe('livestream.status.updated');
    expect(signatureVerifies(fx.sandbox.ctx.keys.publicKeyPem, request)).toBe(true);
    expect(statusDeliveries()[0]).toMatchObject({ is_live: true, ended_at: null });
    const onAir = await channel();
    expect(onAir.stream.is_live).toBe(true);
    expect(onAir.stream.viewer_count).toBeGreaterThan(0);
    expect(Date.parse(onAir.stream.start_time)).toBeGreaterThan(Date.now() - 60_000);

    const offline = nextStatus();
    publisher.unpublish(streamKey());
    expect((await offline).is_live).toBe(false);
    // Every media byte sent before the unpublish was counted on the way.
    const stats = fx.sandbox.ingest.sessions().find((s) => s.app === 'app')!;
    expect(stats).toMatchObject({ audioBytes: sent.audio, videoBytes: sent.video, dataBytes: sent.data });
    await fx.receiver.waitForRequests(2);
    expect(statusDeliveries()[1]).toMatchObject({ is_live: false, ended_at: expect.any(String) });
    expect(signatureVerifies(fx.sandbox.ctx.keys.publicKeyPem, fx.receiver.requests[1]!)).toBe(true);
    expect((await channel()).stream.is_live).toBe(false);
    await publisher.close();
  });

  it('sets up the connection as an ingest does, and acknowledges every window the encoder asked for', async () => {
    const { publisher } = await publishWith(streamKey());
    // connect: Window Acknowledgement Size, Set Peer Bandwidth, Set Chunk Size; publish: Stream Begin.
    expect(publisher.control.slice(0, 4).map((c) => c.typeId)).toEqual([5, 6, 1, 4]);
    expect(publisher.control[2]!.payload.readUInt32BE(0)).toBe(4096);
    const window = Buffer.alloc(4);
    window.writeUInt32BE(10_000);
    publisher.send(2, 5, 0, window);
    publisher.sendMedia(5, 2000);
    await publisher.waitControl(3, 1);
    publisher.sendMedia(5, 2000);
    await publisher.waitControl(3, 2);
    const acks = publisher.control.filter((c) => c.typeId === 3).map((c) => c.payload.readUInt32BE(0));
    expect(acks[1]! - acks[0]!).toBeGreaterThanOrEqual(10_000);
    expect(acks.at(-1)).toBeLessThanOrEqual(fx.sandbox.ingest.sessions()[0]!.receivedBytes);
    await publisher.close();
  });

  it('goes offline when the encoder just drops the connection', async () => {
    const { publisher } = await publishWith(streamKey());
    const offline = nextStatus();
    publisher.raw.socket.destroy();
    expect((await offline).is_live).toBe(false);
    expect((await channel()).stream.is_live).toBe(false);
  });

  it('refuses a wrong key with BadName, closes, and changes nothing', async () => {
    const before = structuredClone(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID));
    const { publisher, code } = await publishWith(`${streamKey()}x`);
    expect(code).toBe('NetStream.Publish.BadName');
    await publisher.raw.closed;
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)).toEqual(before);
    expect(statusDeliveries()).toEqual([]);
    expect(fx.logs.join('\n')).not.toContain(streamKey());
    await expectGoodPublisherWorks();
  });

  it('refuses an empty key and a key from another app name', async () => {
    expect((await publishWith('')).code).toBe('NetStream.Publish.BadName');
    const { publisher, connect } = await RtmpPublisher.connect(fx.sandbox.urls.rtmp.replace(/\/app$/, '/live'));
    expect(connect.name).toBe('_error');
    await publisher.raw.closed;
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(false);
  });

  it('refuses a second publisher on a live channel, and the first keeps the channel', async () => {
    const first = await publishWith(streamKey());
    const livestreamId = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.livestreamId;
    const second = await publishWith(streamKey());
    expect(second.code).toBe('NetStream.Publish.BadName');
    await second.publisher.raw.closed;
    const kept = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    expect(kept.isLive).toBe(true);
    expect(kept.livestreamId).toBe(livestreamId);
    const offline = nextStatus();
    await first.publisher.close();
    expect((await offline).is_live).toBe(false);
  });

  it('puts the stream URL of this run into a world saved with another port, and after a reset', async () => {
    const saved = saveWorld(fx.sandbox.ctx.state, fx.sandbox.urls.api);
    for (const c of saved.channels) {
      c.streamUrl = 'rtmp://127.0.0.1:1/app';
    }
    const again = await startSandbox({ savedWorld: saved, keys: fx.sandbox.ctx.keys });
    try {
      const restored = again.ctx.state.channels.get(STREAMER_USER_ID)!;
      expect(restored.streamUrl).toBe(again.urls.rtmp);
      expect(restored.streamKey).toBe(streamKey());
      again.reset();
      expect(again.ctx.state.channels.get(STREAMER_USER_ID)!.streamUrl).toBe(again.urls.rtmp);
    } finally {
      await again.close();
    }
  });

  it('ends a publish when the sandbox is reset, and the old key no longer works', async () => {
    const oldKey = streamKey();
    const { publisher } = await publishWith(oldKey);
    fx.sandbox.reset();
    await publisher.raw.closed;
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(false);
    expect((await publishWith(oldKey)).code).toBe('NetStream.Publish.BadName');
    await expectGoodPublisherWorks();
  });
});
