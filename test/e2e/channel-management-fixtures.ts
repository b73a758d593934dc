/**
 * What the channel-management.spec files share: their fixtures and helpers.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { SandboxReward, SandboxState } from '../../sandbox/state';
import { triggerEvent } from '../../sandbox/triggers';
import { type E2E, startE2E } from './harness';
import { signIn, STREAMER_USER_ID } from './sign-in';
import { openSection } from '../helpers/panel-tabs';

/** How long to wait for a webhook round trip or a panel update before failing. */
export const WAIT = { timeout: 15_000, interval: 100 };

export const fx = {} as {
  e2e: E2E;
  state: SandboxState;
  page: Page;
};

/** Opens a main tab (its accessible name may carry a badge, such as "Redemptions 5 waiting"). */
export async function openTab(label: string, on: Page = fx.page): Promise<Locator> {
  const id = { Redemptions: 'redemptions', Rewards: 'rewards', Ads: 'ads', Stream: 'stream', KICKs: 'kicks' }[label];
  await openSection(on, label);
  const panel = on.locator(`#main-panel-${id ?? label.toLowerCase()}`);
  await panel.waitFor();
  return panel;
}

/** A viewer's user id by name (the sandbox's fixed viewers). */
export function userId(username: string): number {
  const user = fx.state.userByName(username);
  if (!user) {
    throw new Error(`no sandbox user ${username}`);
  }
  return user.userId;
}

/** A viewer redeems `reward`, as on kick.com; the webhook then reaches the panel. */
export function redeem(reward: SandboxReward, username: string, userInput?: string): string {
  const before = new Set(fx.state.redemptions.keys());
  triggerEvent(fx.e2e.sandbox.ctx, 'channel.reward.redemption.updated', {
    overrides: {
      reward: { id: reward.id },
      redeemer: { user_id: userId(username) },
      ...(userInput === undefined ? {} : { user_input: userInput }),
    },
  });
  const id = [...fx.state.redemptions.keys()].find((k) => !before.has(k));
  if (!id) {
    throw new Error('the sandbox stored no redemption');
  }
  return id;
}

/** An element's text with its whitespace collapsed (the markup's line breaks and indents). */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

export const statusOf = (id: string) => fx.state.redemptions.get(id)?.status;
export const rewardTitled = (title: string) =>
  [...fx.state.rewards.values()].find((r) => r.title === title && r.broadcasterUserId === STREAMER_USER_ID);

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeAll(async () => {
    fx.e2e = await startE2E();
    fx.state = fx.e2e.sandbox.ctx.state;
    fx.page = fx.e2e.page;
    await signIn(fx.e2e);
  });

  afterAll(() => fx.e2e?.close());
}
