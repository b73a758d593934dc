import { describe, expect, it } from 'vitest';
import { createHandlers, type HandlerDeps } from '../../../../electron/ipc/handlers';
import { EXTERNAL_HOSTS } from '../../../../electron/ipc/external-links';

const SIGN_IN_URL = 'https://id.kick.com/oauth/authorize?client_id=c&state=s';

/** Only what app:open-external touches; the other handlers are not called here. */
function handlersWith(pending: string | null, chatLines: string[] = []) {
  const opened: string[] = [];
  const logs: string[] = [];
  const deps = {
    account: { signInUrl: () => pending },
    chat: { messages: () => chatLines.map((content) => ({ content })) },
    openExternal: (url: string) => {
      opened.push(url);
      return Promise.resolve();
    },
    linkPolicy: () => ({ hosts: EXTERNAL_HOSTS, origins: [] }),
    log: (line: string) => void logs.push(line),
  } as unknown as HandlerDeps;
  return { send: createHandlers(deps).send, opened, logs };
}

describe('app:open-external and the sign-in link', () => {
  it('opens the authorize link of the sign-in under way, although id.kick.com is not a guide link', async () => {
    const { send, opened } = handlersWith(SIGN_IN_URL);
    await send['app:open-external']({ url: SIGN_IN_URL });
    expect(opened).toEqual([SIGN_IN_URL]);
  });

  it('refuses any other id.kick.com link, and the same link once no sign-in waits for it', async () => {
    const waiting = handlersWith(SIGN_IN_URL);
    await waiting.send['app:open-external']({ url: `${SIGN_IN_URL}&scope=x` });
    expect(waiting.opened).toEqual([]);
    const idle = handlersWith(null);
    await idle.send['app:open-external']({ url: SIGN_IN_URL });
    expect(idle.opened).toEqual([]);
    expect(idle.logs.join()).toMatch(/refused/);
  });

  it('opens a viewer’s http(s) link whose host is in chat, and nothing else from chat', async () => {
    const { send, opened } = handlersWith(null, ['clip: https://clips.example.org/42 gg']);
    await send['app:open-external']({ url: 'https://clips.example.org/42' });
    await send['app:open-external']({ url: 'https://elsewhere.example.net/' });
    await send['app:open-external']({ url: 'file:///etc/passwd' });
    expect(opened).toEqual(['https://clips.example.org/42']);
  });
});
