/**
 * A ban or timeout takes the viewer's lines off the chat box (docs/overlays.md#chat-box-goal-bar-recent-events): off one open at the time,
 * and off one opened later or sent its chat afresh by a settings change, which used to bring them back on stream.
 * With no chat box open the hub does not read the chat for a ban: it used to scan the whole scrollback for every
 * ban, which a raid with auto-moderation on did hundreds of times a minute with nobody to tell.
 */
import { describe, expect, it } from 'vitest';
import { createAppEvents } from '../../../../electron/core/app-events';
import { AdjustableClock } from '../../../../electron/core/clock';
import { OverlayHub, type OverlaySocket } from '../../../../electron/overlays/overlay-hub';
import { DEFAULT_OVERLAY_SETTINGS, type OverlayFrame, type OverlayKind } from '../../../../shared/overlays';
import type { ChatMessageView, ModAction } from '../../../../shared/views';

const T0 = Date.parse('2026-03-04T05:06:07Z');

function line(messageId: string, userId: number, sentAtMs = T0 - 1_000): ChatMessageView {
  return {
    messageId,
    content: `hello from ${userId}`,
    emotes: [],
    sender: { userId, username: `viewer${userId}`, color: null, badges: [], isVerified: false },
    replyTo: null,
    sentAtMs,
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
  const settings = structuredClone(DEFAULT_OVERLAY_SETTINGS);
  const clock = new AdjustableClock({ now: () => T0 });
  const chat = [line('a1', 7), line('b1', 8), line('a2', 7)];
  let reads = 0;
  const events = createAppEvents(() => undefined);
  const hub = new OverlayHub({
    clock,
    settings: () => settings,
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
  return { hub, events, sockets, chat, clock, reads: () => reads };
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

  it("keeps the viewer's lines off a chat box opened after the ban", () => {
    const { hub, events } = setUp([]);
    events.emit('mod:action', timeout(7));
    const later = socket();
    hub.attach(later, 'chat');
    expect(later.frames.filter((frame) => frame.type === 'chat')).toEqual([
      { type: 'chat', messages: [line('b1', 8)] },
    ]);
  });

  it('keeps them off when a settings change sends the chat box its chat again', () => {
    const { events, sockets } = setUp(['chat']);
    events.emit('mod:action', timeout(7));
    sockets[0]!.frames.length = 0;
    events.emit('settings:changed', undefined as never);
    const chat = sockets[0]!.frames.filter((frame) => frame.type === 'chat');
    expect(chat).toEqual([{ type: 'chat', messages: [line('b1', 8)] }]);
  });

  it('shows what the viewer says once the timeout is over', () => {
    const { hub, events, chat, clock } = setUp([]);
    events.emit('mod:action', timeout(7));
    clock.advance(61_000);
    chat.push(line('a3', 7, clock.now()));
    const later = socket();
    hub.attach(later, 'chat');
    expect(later.frames.filter((frame) => frame.type === 'chat')).toEqual([
      { type: 'chat', messages: [line('b1', 8), line('a3', 7, clock.now())] },
    ]);
  });
});
