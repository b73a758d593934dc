import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BrowserNotifySwitch from '../../../../renderer/src/components/BrowserNotifySwitch.svelte';
import { settle } from '../fake-api';

function stubNotifications(permission: 'default' | 'denied', answer: 'granted' | 'denied' = 'granted') {
  const Notification = class {
    static permission: string = permission;
    static requestPermission = vi.fn(() => {
      Notification.permission = answer;
      return Promise.resolve(answer);
    });
  };
  vi.stubGlobal('Notification', Notification);
  return Notification;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as { greenroom?: unknown }).greenroom;
  localStorage.clear();
});

const toggle = () => screen.getByRole<HTMLInputElement>('checkbox', { name: /Show notifications in this browser/ });

describe('BrowserNotifySwitch', () => {
  it('asks the browser only when switched on, and is on once allowed', async () => {
    const Notification = stubNotifications('default');
    render(BrowserNotifySwitch);
    expect(Notification.requestPermission).not.toHaveBeenCalled();
    expect(toggle().checked).toBe(false);
    await fireEvent.click(toggle());
    await settle();
    expect(Notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(toggle().checked).toBe(true);
    await fireEvent.click(toggle());
    expect(toggle().checked).toBe(false);
    expect(localStorage.getItem('greenroom.browserNotifications')).toBe('0');
  });

  it('says where to allow them when the browser blocks them, and is not offered in the desktop window', () => {
    stubNotifications('denied');
    const blocked = render(BrowserNotifySwitch);
    expect(toggle().disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toContain('Allow them in its site settings');
    blocked.unmount();
    (globalThis as { greenroom?: unknown }).greenroom = {};
    render(BrowserNotifySwitch);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
