import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { LiveSocketHealthView } from '../../../../shared/views';
import HealthLiveSocket from '../../../../renderer/src/components/HealthLiveSocket.svelte';

const NOW = 1_800_000_000_000;
const VIEW: LiveSocketHealthView = {
  state: 'waiting',
  provider: 'centrifugo',
  keySource: 'discovered',
  channels: ['chatrooms.4242.v2', 'channel_99'],
  connectedAtMs: null,
  lastFrameAtMs: NOW - 120_000,
  retryAtMs: NOW + 2_000,
  lastClose: { code: 4200, reason: 'reconnect' },
  problem: null,
  counters: { events: 12, unknown: 1, malformed: 2, reconnects: 3 },
};

describe('HealthLiveSocket', () => {
  it('says the state plainly, and keeps the provider, channels and close code behind Details', () => {
    render(HealthLiveSocket, { props: { view: VIEW, now: NOW } });
    const region = screen.getByRole('region', { name: "Kick's live chat connection" });
    expect(screen.getByTestId('live-socket-state').textContent).toBe(
      'Connection lost; trying again in less than a minute',
    );
    const details = region.querySelector('details')!;
    expect(details.open).toBe(false);
    const outside = region.textContent.replace(details.textContent, '');
    const text = region.textContent.replace(/\s+/g, ' ');
    expect(text).toContain('Last heard from Kick: 2 min ago.');
    expect(text).toContain('webhooks stay the record');
    expect(outside).not.toMatch(/centrifugo|chatrooms\.4242|4200/);
    expect(details.textContent).toMatch(/centrifugo/);
    expect(details.textContent).toContain('chatrooms.4242.v2');
    expect(details.textContent).toContain('4200');
    expect(details.textContent.replace(/\s+/g, ' ')).toContain('1 unknown, 2 unreadable, 3 reconnects');
  });

  it('asks for the ids in Settings when Kick’s website would not give them', () => {
    render(HealthLiveSocket, { props: { view: { ...VIEW, state: 'needs-ids', problem: 'HTTP 403' }, now: NOW } });
    expect(screen.getByRole('region').textContent).toContain('Settings → Kick’s live chat connection');
  });
});
