/**
 * A ban or timeout takes the viewer's lines off an open chat box (docs/overlays.md), and with no chat box open the
 * hub does not read the chat at all: it used to scan the whole scrollback for every ban, which a raid with
 * auto-moderation on did hundreds of times a minute with nobody to tell.
 */
import { describe, expect, it } from 'vitest';
import { createAppEvents } from '../../../../electron/core/app-events';
import { systemClock } from '../../../../electron/core/clock';
import { OverlayHub, type OverlaySocket } from '../../../../electron/overlays/overlay-hub';
import { DEFAULT_OVERLAY_SETTINGS, type OverlayFrame, type OverlayKind } from '../../../../shared/overlays';
import type { ChatMessageView, ModAction } from '../../../../shared/views';

function line(messageId: string, userId: number): ChatMessageView {
  return {
    messageId,
    content: `hello from ${userId}`,
    emotes: [],
    sender: { userId, username: `viewer${userId}`, color: null, badges: [], isVerified: false },
    replyTo: null,
    sentAtMs: 0,
    deleted: false,
  };
}

/** An overlay's socket reduced to the frames it was sent. */
function socket(): OverlaySocket & { frames: OverlayFrame[] } {
  const frames: OverlayFrame[] = [];
  return {
    frames,
    send: (text) => frames.push(JSON.parse(text) as OverlayFrame),
    close: () => undefined,
    on: () => undefined,
  };
}

function setUp(open: OverlayKind[]) {
  const chat = [line('a1', 7), line('b1', 8), line('a2', 7)];
  let reads = 0;
  const events = createAppEvents(() => undefined);
  const hub = new OverlayHub({
    clock: systemClock,
    settings: () => DEFAULT_OVERLAY_SETTINGS,
    emoteHost: () => '',
    mediaUrl: (name) => `/overlay/media/${name}`,
    progress: { read: () => null, write: () => undefined },
    chatMessages: () => {
      reads += 1;
      return chat;
    },
    feedItems: () => [],
    log: () => undefined,
  });
  hub.endReplay();
  hub.follow(events);
  const sockets = open.map((kind) => {
    const s = socket();
    hub.attach(s, kind);
    return s;
  });
  return { events, sockets, reads: () => reads };
}

const timeout = (targetUserId: number): ModAction => ({
  id: `m${targetUserId}`,
  kind: 'timeout',
  atMs: 0,
  targetUserId,
  targetUsername: `viewer${targetUserId}`,
  minutes: 1,
  ok: true,
});

describe('a ban and the chat box', () => {
  it("takes the viewer's lines, and only theirs, off an open chat box", () => {
    const { events, sockets } = setUp(['chat']);
    sockets[0]!.frames.length = 0;
    events.emit('mod:action', timeout(7));
    expect(sockets[0]!.frames).toEqual([{ type: 'chat-remove', messageIds: ['a1', 'a2'] }]);
  });

  it('does not read the chat for a ban when no chat box is open', () => {
    const { events, reads } = setUp(['alerts', 'goal']);
    const before = reads();
    for (let i = 0; i < 100; i += 1) {
      events.emit('mod:action', timeout(7));
    }
    expect(reads()).toBe(before);
  });
});
