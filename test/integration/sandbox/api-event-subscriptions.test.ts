/**
 * Webhook event subscriptions ([reference §3.11](../../../docs/kick-wire-reference.md#311-event-subscriptions)): list, create (per-event results, duplicates allowed as in
 * KickDevDocs #246) and delete, with app tokens for any broadcaster and user tokens for their own.
 */
import { describe, expect, it } from 'vitest';
import { createUlid } from '../../../electron/core/ids';
import { FIRST_OTHER_STREAMER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_EVENT_TYPES, KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintAppToken, mintUserToken, registerOtherApp } from '../../helpers/sandbox';
import { PATH, ULID, fx, list, subscribe, useSetup } from './api-event-subscriptions-fixtures';

useSetup();

describe('POST /public/v1/events/subscriptions', () => {
  it('subscribes an app token to a broadcaster and lists the subscription with its full shape', async () => {
    const res = await call(fx.api, 'POST', PATH, {
      token: fx.appToken,
      body: {
        events: [{ name: 'chat.message.sent', version: 1 }],
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [{ name: 'chat.message.sent', version: 1, subscription_id: expect.stringMatching(ULID) }],
      message: 'OK',
    });
    const listed = await call(fx.api, 'GET', PATH, { token: fx.appToken });
    const created = new Date(
      fx.sandbox.ctx.state.subscriptions.get(res.json.data[0].subscription_id as string)!.createdAtMs,
    ).toISOString();
    expect(listed.json).toEqual({
      data: [
        {
          id: res.json.data[0].subscription_id,
          app_id: fx.sandbox.ctx.app.appId,
          broadcaster_user_id: STREAMER_USER_ID,
          event: 'chat.message.sent',
          version: 1,
          method: 'webhook',
          created_at: created,
          updated_at: created,
        },
      ],
      message: 'OK',
    });
  });

  it('subscribes to every documented event type', async () => {
    const results = await subscribe(fx.appToken, [...KICK_EVENT_TYPES]);
    expect(results.map((r) => [r.name, typeof r.subscription_id, r.error])).toEqual(
      KICK_EVENT_TYPES.map((name) => [name, 'string', undefined]),
    );
  });

  it('does not reject duplicates (KickDevDocs #246): the same event twice makes two subscriptions', async () => {
    const first = await subscribe(fx.appToken, ['channel.followed']);
    const second = await subscribe(fx.appToken, ['channel.followed', 'channel.followed']);
    const ids = [...first, ...second].map((r) => r.subscription_id);
    expect(new Set(ids).size).toBe(3);
    expect((await list(fx.appToken)).map((s) => s.event)).toEqual([
      'channel.followed',
      'channel.followed',
      'channel.followed',
    ]);
  });

  it('reports unknown events and versions per item and creates the rest', async () => {
    const res = await call(fx.api, 'POST', PATH, {
      token: fx.appToken,
      body: {
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
        events: [
          { name: 'channel.moderation.user_banned', version: 1 },
          { name: 'moderation.banned', version: 2 },
          { name: 'moderation.banned', version: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      {
        name: 'channel.moderation.user_banned',
        version: 1,
        error: 'unknown event type "channel.moderation.user_banned"',
      },
      { name: 'moderation.banned', version: 2, error: 'unsupported version 2: moderation.banned exists in version 1' },
      { name: 'moderation.banned', version: 1, subscription_id: expect.stringMatching(ULID) },
    ]);
    expect(await list(fx.appToken)).toHaveLength(1);
  });

  it.each([
    [
      { events: [{ name: 'channel.followed', version: 1 }], method: 'webhook' },
      'broadcaster_user_id: is required with an app access token',
    ],
    [
      { events: [{ name: 'channel.followed', version: 1 }], method: 'webhook', broadcaster_user_id: '100001' },
      'broadcaster_user_id: must be a positive integer',
    ],
    [
      { events: [{ name: 'channel.followed', version: 1 }], method: 'webhook', broadcaster_user_id: 0 },
      'broadcaster_user_id: must be a positive integer',
    ],
    [
      { events: [{ name: 'channel.followed', version: 1 }], method: 'webhook', broadcaster_user_id: 999_999 },
      'broadcaster_user_id: channel not found',
    ],
    [
      { events: [{ name: 'channel.followed', version: 1 }], broadcaster_user_id: 100001 },
      'method: is required (only "webhook")',
    ],
    [
      { events: [{ name: 'channel.followed', version: 1 }], method: 'websocket', broadcaster_user_id: 100001 },
      'method: must be "webhook"',
    ],
    [{ method: 'webhook', broadcaster_user_id: 100001 }, 'events: is required'],
    [{ events: [], method: 'webhook', broadcaster_user_id: 100001 }, 'events: must have at least 1 item(s)'],
    [
      { events: 'chat.message.sent', method: 'webhook', broadcaster_user_id: 100001 },
      'events: must be an array of {name, version}',
    ],
    [
      { events: ['chat.message.sent'], method: 'webhook', broadcaster_user_id: 100001 },
      'events[0]: must be an object with name and version',
    ],
    [{ events: [{ version: 1 }], method: 'webhook', broadcaster_user_id: 100001 }, 'events[0].name: is required'],
    [
      { events: [{ name: 5, version: 1 }], method: 'webhook', broadcaster_user_id: 100001 },
      'events[0].name: must be a string',
    ],
    [
      { events: [{ name: 'a', version: 1 }, { name: 'b' }], method: 'webhook', broadcaster_user_id: 100001 },
      'events[1].version: is required',
    ],
    [
      { events: [{ name: 'a', version: '1' }], method: 'webhook', broadcaster_user_id: 100001 },
      'events[0].version: must be an integer',
    ],
  ])('answers 400 to %j and creates nothing', async (body, detail) => {
    const res = await call(fx.api, 'POST', PATH, { token: fx.appToken, body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    expect(fx.sandbox.ctx.state.subscriptions.size).toBe(0);
  });

  it.each(['{"events": [', '[]', 'null', ''])('answers 400 to the raw body %j without crashing', async (rawBody) => {
    const res = await call(fx.api, 'POST', PATH, {
      token: fx.appToken,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Bad request');
    expect((await call(fx.api, 'GET', PATH, { token: fx.appToken })).status).toBe(200);
  });

  it('subscribes a user token for its own user, ignoring broadcaster_user_id (even a malformed one)', async () => {
    const userToken = mintUserToken(fx.sandbox, ['events:subscribe']);
    for (const broadcaster of [FIRST_OTHER_STREAMER_USER_ID, 'not a number', undefined]) {
      const body: Record<string, unknown> = { events: [{ name: 'kicks.gifted', version: 1 }], method: 'webhook' };
      if (broadcaster !== undefined) {
        body.broadcaster_user_id = broadcaster;
      }
      const res = await call(fx.api, 'POST', PATH, { token: userToken, body });
      expect(res.status).toBe(200);
    }
    const all = await list(fx.appToken);
    expect(all.map((s) => s.broadcaster_user_id)).toEqual([STREAMER_USER_ID, STREAMER_USER_ID, STREAMER_USER_ID]);
  });

  it('needs events:subscribe with a user token, and a token at all', async () => {
    const res = await call(fx.api, 'POST', PATH, {
      token: mintUserToken(fx.sandbox, ['user:read']),
      body: { events: [{ name: 'kicks.gifted', version: 1 }], method: 'webhook' },
    });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ data: 'missing scope: events:subscribe', message: 'Forbidden' });
    expect((await call(fx.api, 'POST', PATH, { body: {} })).status).toBe(401);
    expect((await call(fx.api, 'GET', PATH, { token: mintUserToken(fx.sandbox, ['user:read']) })).status).toBe(403);
    expect((await call(fx.api, 'DELETE', PATH, { token: 'bogus', query: [['id', 'x']] })).json).toEqual({
      data: {},
      message: 'Unauthorized',
    });
  });
});

describe('GET /public/v1/events/subscriptions', () => {
  it("lists only the token's app's subscriptions, filtered by broadcaster_user_id", async () => {
    await subscribe(fx.appToken, ['chat.message.sent']);
    await subscribe(fx.appToken, ['channel.followed'], FIRST_OTHER_STREAMER_USER_ID);
    const otherApp = mintAppToken(fx.sandbox, registerOtherApp(fx.sandbox));
    await subscribe(otherApp, ['kicks.gifted']);

    expect((await list(fx.appToken)).map((s) => s.event)).toEqual(['chat.message.sent', 'channel.followed']);
    expect((await list(otherApp)).map((s) => s.event)).toEqual(['kicks.gifted']);
    expect(
      (await list(fx.appToken, [['broadcaster_user_id', FIRST_OTHER_STREAMER_USER_ID]])).map((s) => s.event),
    ).toEqual(['channel.followed']);
    expect(await list(fx.appToken, [['broadcaster_user_id', 42]])).toEqual([]);
  });

  it("shows a user token only its own broadcaster's subscriptions", async () => {
    await subscribe(fx.appToken, ['chat.message.sent']);
    await subscribe(fx.appToken, ['channel.followed'], FIRST_OTHER_STREAMER_USER_ID);
    const userToken = mintUserToken(fx.sandbox, KICK_SCOPES);
    expect((await list(userToken)).map((s) => s.event)).toEqual(['chat.message.sent']);
    expect(await list(userToken, [['broadcaster_user_id', FIRST_OTHER_STREAMER_USER_ID]])).toEqual([]);
  });

  it('answers [] with no subscriptions and 400 to a malformed filter', async () => {
    expect((await call(fx.api, 'GET', PATH, { token: fx.appToken })).json).toEqual({ data: [], message: 'OK' });
    const bad = await call(fx.api, 'GET', PATH, { token: fx.appToken, query: [['broadcaster_user_id', 'abc']] });
    expect(bad.status).toBe(400);
    expect(bad.json.data).toBe('broadcaster_user_id: must be an integer');
  });
});

describe('DELETE /public/v1/events/subscriptions', () => {
  it('deletes the given ids (repeated) with 204 and ignores unknown ones', async () => {
    const [a, b, c] = (await subscribe(fx.appToken, ['chat.message.sent', 'channel.followed', 'kicks.gifted'])).map(
      (r) => r.subscription_id!,
    );
    const res = await call(fx.api, 'DELETE', PATH, {
      token: fx.appToken,
      query: [
        ['id', a!],
        ['id', c!],
        ['id', createUlid(0)],
      ],
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await list(fx.appToken)).map((s) => s.id)).toEqual([b]);
  });

  it("leaves another app's subscriptions alone", async () => {
    const otherApp = mintAppToken(fx.sandbox, registerOtherApp(fx.sandbox));
    const [theirs] = await subscribe(otherApp, ['chat.message.sent']);
    expect(
      (await call(fx.api, 'DELETE', PATH, { token: fx.appToken, query: [['id', theirs!.subscription_id!]] })).status,
    ).toBe(204);
    expect(await list(otherApp)).toHaveLength(1);
  });

  it("does not let a user token delete the app's subscriptions for another broadcaster", async () => {
    const [mine] = await subscribe(fx.appToken, ['chat.message.sent']);
    const [theirs] = await subscribe(fx.appToken, ['chat.message.sent'], FIRST_OTHER_STREAMER_USER_ID);
    const userToken = mintUserToken(fx.sandbox, ['events:subscribe']);
    const res = await call(fx.api, 'DELETE', PATH, {
      token: userToken,
      query: [
        ['id', mine!.subscription_id!],
        ['id', theirs!.subscription_id!],
      ],
    });
    expect(res.status).toBe(204);
    expect((await list(fx.appToken)).map((s) => s.id)).toEqual([theirs!.subscription_id]);
  });

  it('answers 400 without an id', async () => {
    await subscribe(fx.appToken, ['chat.message.sent']);
    for (const query of [[], [['id', '']]] as [string, string][][]) {
      const res = await call(fx.api, 'DELETE', PATH, { token: fx.appToken, query });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ data: 'id: is required (one or more subscription ids)', message: 'Bad request' });
    }
    expect(await list(fx.appToken)).toHaveLength(1);
  });
});
