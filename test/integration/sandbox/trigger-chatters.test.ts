/**
 * A crowd in chat: `POST /trigger/chat.message.sent` with `chatters` (the CLI's `--chatters N`) sends its lines
 * from N distinct viewers in turn, making crowd viewers when the seeded ones run out
 * ([sandbox notes](../../../docs/sandbox.md#a-crowd-in-chat)). Bad input is refused at the field, naming the
 * limit, and changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { TRIGGER_LIMITS } from '../../../sandbox/triggers';
import { STREAMER_USER_ID, viewerIds } from '../../../sandbox/world';
import { callAdmin, startSandbox } from '../../helpers/sandbox';

interface Fired {
  events: { payload: { sender: { user_id: number; username: string } } }[];
}

describe('the chat trigger with a number of chatters', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(() => sandbox.close());

  const trigger = (body: Record<string, unknown>) => callAdmin(sandbox, 'POST', '/trigger/chat.message.sent', { body });
  const senders = (res: { json: unknown }) => (res.json as Fired).events.map((e) => e.payload.sender);

  it('sends line i from the (i mod N)-th chatter, making crowd viewers past the seeded ones', async () => {
    const seeded = viewerIds(sandbox.ctx.state).length;
    expect(seeded).toBeLessThan(300);
    const res = await trigger({ count: 1000, chatters: 300 });
    expect(res.status).toBe(200);
    const sent = senders(res);
    expect(sent).toHaveLength(1000);
    const ids = sent.map((s) => s.user_id);
    expect(new Set(ids).size).toBe(300);
    expect(ids.slice(300, 600)).toEqual(ids.slice(0, 300));
    // Each chatter is a user the sandbox knows, named as its API names them, so the app can show them.
    for (const { user_id, username } of sent.slice(0, 300)) {
      expect(sandbox.ctx.state.users.get(user_id)?.username).toBe(username);
    }
    expect(viewerIds(sandbox.ctx.state)).toHaveLength(300);
    // The same crowd next time: the chatters are the first N viewers, not new ones each call.
    const again = senders(await trigger({ count: 300, chatters: 300 })).map((s) => s.user_id);
    expect(new Set(again)).toEqual(new Set(ids));
    expect(viewerIds(sandbox.ctx.state)).toHaveLength(300);
  });

  it('leaves a banned viewer out of the crowd', async () => {
    const first = viewerIds(sandbox.ctx.state).sort((a, b) => a - b)[0]!;
    await callAdmin(sandbox, 'POST', '/trigger/moderation.banned', {
      body: { overrides: { banned_user: { user_id: first } } },
    });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, first)).toBeDefined();
    const ids = senders(await trigger({ count: 50, chatters: 50 })).map((s) => s.user_id);
    expect(ids).not.toContain(first);
    expect(new Set(ids).size).toBe(50);
  });

  it('lets a named sender win over the turn', async () => {
    const named = viewerIds(sandbox.ctx.state)[3]!;
    const ids = senders(await trigger({ count: 20, chatters: 10, overrides: { sender: { user_id: named } } }));
    expect(new Set(ids.map((s) => s.user_id))).toEqual(new Set([named]));
  });

  it.each([
    [{ chatters: 0 }, 'chatters: must be at least 1'],
    [{ chatters: TRIGGER_LIMITS.chattersMax + 1 }, `chatters: must be at most ${TRIGGER_LIMITS.chattersMax}`],
    [{ chatters: 2.5 }, 'chatters'],
    [{ chatters: '300' }, 'chatters'],
  ])('refuses %o at the field, naming the limit, and makes nobody', async (body, words) => {
    const before = sandbox.ctx.state.users.size;
    const res = await trigger({ count: 5, ...body });
    expect(res.status).toBe(400);
    expect(res.text).toContain(words);
    expect(sandbox.ctx.state.users.size).toBe(before);
  });

  it('refuses chatters for an event that is not chat', async () => {
    const res = await callAdmin(sandbox, 'POST', '/trigger/channel.followed', { body: { chatters: 5 } });
    expect(res.status).toBe(400);
    expect(res.text).toContain('chatters: only for chat.message.sent');
  });
});
