/**
 * Flipping the sandbox channel live and offline over and over through its RTMP ingest, over real TCP: one
 * socket publishes once (a second publish is refused with BadName and the socket closed), and a channel
 * starts at most `PUBLISH_RATE.streams` streams a minute from reconnecting sockets, while going live again
 * right after going offline, as OBS's reconnect does, still works.
 */
import { describe, expect, it } from 'vitest';
import { PUBLISH_RATE } from '../../../sandbox/ingest/ingest-channels';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import type { RtmpPublisher } from '../../helpers/rtmp-publisher';
import { fx, nextStatus, publishWith, streamKey, useIngestSandbox } from './ingest-fixtures';

useIngestSandbox();

const isLive = () => fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive;

/** Every onStatus code the server sent on this connection, in order. */
const statusCodes = (publisher: RtmpPublisher) =>
  publisher.commands.filter((c) => c.name === 'onStatus').map((c) => (c.values[3] as { code: string }).code);

/** Publishes on a fresh socket, stops, waits for the offline event, and closes. */
async function liveThenOffline(): Promise<void> {
  const { publisher, code } = await publishWith(streamKey());
  expect(code).toBe('NetStream.Publish.Start');
  const offline = nextStatus();
  publisher.unpublish(streamKey());
  expect((await offline).is_live).toBe(false);
  await publisher.close();
}

describe('sandbox RTMP ingest, one publish per connection', () => {
  it('refuses a publish after FCUnpublish on the same socket, closes it, and announces nothing more', async () => {
    const { publisher, code } = await publishWith(streamKey());
    expect(code).toBe('NetStream.Publish.Start');
    const offline = nextStatus();
    publisher.unpublish(streamKey());
    await offline;
    await publisher.publish(streamKey());
    await publisher.raw.closed;
    expect(statusCodes(publisher)).toEqual(['NetStream.Publish.Start', 'NetStream.Publish.BadName']);
    expect(fx.logs.join('\n')).toMatch(/a second publish on one connection/);
    expect(isLive()).toBe(false);
    expect(fx.statusEvents.map((e) => e.is_live)).toEqual([true, false]);
  });

  it('200 unpublish and publish cycles on one socket give one live and one offline event', async () => {
    const { publisher, code } = await publishWith(streamKey());
    expect(code).toBe('NetStream.Publish.Start');
    for (let i = 0; i < 200; i++) {
      publisher.unpublish(streamKey());
      await publisher.publish(streamKey());
    }
    await publisher.raw.closed;
    await fx.sandbox.ingest.whenIdle();
    expect(fx.statusEvents.map((e) => e.is_live)).toEqual([true, false]);
    expect(isLive()).toBe(false);
  });

  it('refuses a second publish while the first is still going, and the channel goes offline once', async () => {
    const { publisher, code } = await publishWith(streamKey());
    expect(code).toBe('NetStream.Publish.Start');
    await publisher.publish(streamKey());
    await publisher.raw.closed;
    expect(statusCodes(publisher)).toEqual(['NetStream.Publish.Start', 'NetStream.Publish.BadName']);
    await fx.sandbox.ingest.whenIdle();
    expect(fx.statusEvents.map((e) => e.is_live)).toEqual([true, false]);
  });
});

describe('sandbox RTMP ingest, streams a channel starts in a minute', () => {
  it('lets a reconnect go live right after offline, refuses past the budget, and serves again later', async () => {
    // Refused keys count against nothing: only streams that started do.
    for (let i = 0; i < PUBLISH_RATE.streams + 2; i++) {
      const wrong = await publishWith(`${streamKey()}x`);
      expect(wrong.code).toBe('NetStream.Publish.BadName');
      await wrong.publisher.raw.closed;
    }
    for (let i = 0; i < PUBLISH_RATE.streams; i++) {
      await liveThenOffline();
    }
    expect(fx.statusEvents).toHaveLength(2 * PUBLISH_RATE.streams);
    const refused = await publishWith(streamKey());
    expect(refused.code).toBe('NetStream.Publish.BadName');
    await refused.publisher.raw.closed;
    expect(fx.logs.join('\n')).toMatch(/started 10 streams in the last minute; try again in \d+ s/);
    expect(isLive()).toBe(false);
    expect(fx.statusEvents).toHaveLength(2 * PUBLISH_RATE.streams);
    fx.sandbox.ctx.clock.advance(PUBLISH_RATE.windowMs);
    await liveThenOffline();
    expect(fx.statusEvents).toHaveLength(2 * PUBLISH_RATE.streams + 2);
  });
});
