/**
 * A panel left open across an app restart: the app comes back with its embedded sandbox on another port, so
 * the emote address the panel had names a dead port. On the reconnect the panel reads the address again
 * from the snapshot, and every emote, on the lines shown before and on new ones, is an image again from the
 * new address. Through App with the transport fake and a link the test drops and brings back.
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { message, settings, snapshot } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

const OLD = 'http://127.0.0.1:41001';
const NEW = 'http://127.0.0.1:42002';

/** The image each emote box in the log draws, from the page's own emote style rules. */
function emoteImages(): string[] {
  const rules = document.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules]) as CSSStyleRule[];
  const urlOf = (cls: string) =>
    rules.find((r) => r.selectorText === `.${cls}`)?.style.getPropertyValue('background-image') ?? 'none';
  return [...screen.getByRole('log').querySelectorAll<HTMLElement>('.emote')].map((box) => {
    const cls = [...box.classList].find((c) => /^emote-\d+$/.test(c))!;
    return urlOf(cls);
  });
}

describe('emotes after the app restarted with the panel open', () => {
  it('come from the new address once the link is back, on old lines and new', async () => {
    const fake = createFakeApi();
    const clock = manualClock();
    const link = fakeLink(clock);
    const frames = manualFrames();
    const withEmote = (id: string) =>
      message({ messageId: id, content: `hi [emote:37226:KEKW] ${id}`, username: 'alice' });
    fake.ok('app:snapshot', snapshot({ settings: settings({ emoteHost: OLD }) }));
    fake.ok('chat:history', [withEmote('before')]);
    render(App, {
      props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock, connection: link } },
    });
    await settle();
    frames.run();
    await settle();
    expect(emoteImages()).toEqual([`url("${OLD}/emotes/37226/fullsize")`]);

    link.set('reconnecting');
    fake.ok('app:snapshot', snapshot({ settings: settings({ emoteHost: NEW }) }));
    fake.ok('chat:history', [withEmote('before')]);
    link.set('open');
    await settle();
    frames.run();
    await settle();
    fake.emit('kick:event', { kind: 'chat', message: withEmote('after') });
    await settle();
    frames.run();
    await settle();
    expect(emoteImages()).toEqual([`url("${NEW}/emotes/37226/fullsize")`, `url("${NEW}/emotes/37226/fullsize")`]);
  });
});
