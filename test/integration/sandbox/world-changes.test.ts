/**
 * When the sandbox says its world changed (`onChange`, what the saved world's writer listens to): after a
 * request that changes something over real HTTP, and after an announced event, but not after a read, and
 * not for chat lines, which a saved world does not keep, so a chat storm does not rewrite the file
 * ([sandbox notes](../../../docs/sandbox.md#what-the-saved-world-keeps)).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';

describe('the sandbox announcing a change of its world', () => {
  let sandbox: Sandbox;
  let token: string;
  let changes = 0;

  beforeAll(async () => {
    sandbox = await startSandbox();
    token = mintUserToken(sandbox);
    sandbox.onChange(() => changes++);
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    changes = 0;
  });

  it('says so once a request that changes something has been answered', async () => {
    const res = await call(sandbox.urls.api, 'POST', '/public/v1/channels/rewards', {
      token,
      body: { title: 'Stretch', cost: 50 },
    });
    expect(res.status).toBe(200);
    expect(changes).toBe(1);
  });

  it('says nothing for reads', async () => {
    await call(sandbox.urls.api, 'GET', '/public/v1/channels/rewards', { token });
    await call(sandbox.urls.api, 'GET', '/public/v1/users', { token });
    expect(changes).toBe(0);
  });

  it('says nothing for chat lines, sent or simulated, but does for other events', async () => {
    const sent = await call(sandbox.urls.api, 'POST', '/public/v1/chat', {
      token,
      body: { type: 'user', content: 'hello', broadcaster_user_id: STREAMER_USER_ID },
    });
    expect(sent.status).toBe(200);
    triggerEvent(sandbox.ctx, 'chat.message.sent', { count: 20 });
    expect(changes).toBe(0);
    triggerEvent(sandbox.ctx, 'channel.followed');
    expect(changes).toBe(1);
  });

  it('says so after a reset', () => {
    sandbox.reset();
    expect(changes).toBe(1);
    expect(sandbox.ctx.state.rewards.size).toBe(0);
  });
});
