/**
 * What the chat.test files share: their fixtures and helpers.
 */
import '@testing-library/svelte/vitest';
import { render } from '@testing-library/svelte';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import type { message } from '../fixtures';
import { snapshot } from '../fixtures';

export async function chatView(over: Parameters<typeof snapshot>[0] = {}) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot(over));
  const frames = manualFrames();
  const r = render(App, {
    props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock: manualClock() } },
  });
  await settle();
  const push = async (...messages: ReturnType<typeof message>[]) => {
    for (const m of messages) {
      fake.emit('kick:event', { kind: 'chat', message: m });
    }
    frames.run();
    await settle();
  };
  const row = (id: string) => r.container.querySelector<HTMLElement>(`[data-message-id="${id}"]`)!;
  return { fake, frames, push, row, ...r };
}
