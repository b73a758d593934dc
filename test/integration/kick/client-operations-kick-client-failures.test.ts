import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { CountingAgent } from '../../helpers/counting-agent';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

/** Every seed operation through the real client against the sandbox over HTTP. */
describe('Kick client: failures that are not Kick saying no', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ tokenLifetimes: { accessSeconds: 0 } });
  });
  afterAll(() => sandbox.close());

  it('refreshes once on a 401 and then reports Unauthorized instead of looping', async () => {
    const browser = createTestBrowser(sandbox);
    const agent = new CountingAgent();
    const kick = kickOnSandbox(sandbox, { openExternal: browser.open, dispatcher: agent });
    await kick.signIn();
    await browser.settled();
    const before = agent.requests;
    await expect(kick.client.fetchCurrentUser()).rejects.toMatchObject({ code: 'Unauthorized', status: 401 });
    // Kick sent expires_in 0, which the client cannot trust (it assumes an hour), so: call → 401 → one
    // refresh → call → 401 → reported. Three requests, no loop.
    expect(agent.requests - before).toBe(3);
    await expect(kick.client.fetchCurrentUser()).rejects.toMatchObject({ code: 'Unauthorized' });
    expect(agent.requests - before).toBe(6);
    await kick.close();
    await agent.close();
  });

  it('fails fast with MissingScope when signed in without the scope', async () => {
    const browser = createTestBrowser(sandbox);
    const agent = new CountingAgent();
    const kick = kickOnSandbox(sandbox, { openExternal: browser.open, dispatcher: agent, scopes: ['user:read'] });
    await kick.signIn();
    await browser.settled();
    const before = agent.requests;
    await expect(kick.client.banUser({ broadcasterUserId: STREAMER_USER_ID, userId: 5 })).rejects.toMatchObject({
      code: 'MissingScope',
      details: { scopes: ['moderation:ban'] },
    });
    expect(agent.requests).toBe(before);
    await kick.close();
    await agent.close();
  });

  it('reports Network when Kick cannot be reached and Timeout when it does not answer', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const slow = kickOnSandbox(sandbox, {
      apiUrl: `http://127.0.0.1:${port}`,
      requestTimeoutMs: 100,
      sleep: () => Promise.resolve(),
    });
    await expect(slow.client.fetchPublicKey()).rejects.toMatchObject({ code: 'Timeout' });
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    const unreachable = kickOnSandbox(sandbox, { apiUrl: `http://127.0.0.1:${port}`, sleep: () => Promise.resolve() });
    await expect(unreachable.client.fetchPublicKey()).rejects.toMatchObject({ code: 'Network' });
    await slow.close();
    await unreachable.close();
  });
});
