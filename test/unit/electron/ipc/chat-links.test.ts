import { describe, expect, it } from 'vitest';
import { createHandlers, type HandlerDeps } from '../../../../electron/ipc/handlers';
import { EXTERNAL_HOSTS } from '../../../../electron/ipc/external-links';
import { parseContent } from '../../../../renderer/src/lib/chat-content';

/** Only what app:open-external touches, with `chatLines` as the chat main holds. */
function handlersWith(chatLines: string[]) {
  const opened: string[] = [];
  const deps = {
    account: { signInUrl: () => null },
    chat: { messages: () => chatLines.map((content) => ({ content })) },
    openExternal: (url: string) => {
      opened.push(url);
      return Promise.resolve();
    },
    linkPolicy: () => ({ hosts: EXTERNAL_HOSTS, origins: [] }),
    log: () => undefined,
  } as unknown as HandlerDeps;
  return { send: createHandlers(deps).send, opened };
}

/** The addresses the panel's chat makes links of in `content` (what its "Open link" sends). */
const panelLinks = (content: string): string[] =>
  parseContent(content, null).flatMap((segment) => (segment.kind === 'link' ? [segment.url] : []));

describe('app:open-external opens exactly the links the chat shows', () => {
  it.each([
    ['an ideographic full stop', 'see https://evil。io/x', 'https://evil.io/x'],
    ['an IDN domain', 'яндекс.рф/free', 'https://xn--d1acpjx3f.xn--p1ai/free'],
    ['a bare domain', 'clip at clips.example.org/42 gg', 'https://clips.example.org/42'],
    ['a bare domain and a heart', 'go to evil.com♥', 'https://evil.com/'],
    ['a scheme without slashes', 'https:evil.com', 'https://evil.com/'],
    ['a link beside an emote', '[emote:1:wave]evil.io/x', 'https://evil.io/x'],
  ])('opens a link shown through %s', async (_name, line, url) => {
    expect(panelLinks(line)).toEqual([url]);
    const { send, opened } = handlersWith(['first', line, 'last']);
    await send['app:open-external']({ url });
    expect(opened).toEqual([url]);
  });

  it.each([
    ['another page of a site in chat', 'clip: https://clips.example.org/42', 'https://clips.example.org/7'],
    ['a host inside an emote’s name', 'hi [emote:1:evil.io]', 'https://evil.io/'],
    ['a host inside a longer word', 'mail bob at notevil.io.example', 'https://evil.io/'],
    ['chat that is not a link', 'version 1.2.3', 'http://1.2.0.3/'],
  ])('refuses %s', async (_name, line, url) => {
    expect(panelLinks(line)).not.toContain(url);
    const { send, opened } = handlersWith([line]);
    await send['app:open-external']({ url });
    expect(opened).toEqual([]);
  });
});
