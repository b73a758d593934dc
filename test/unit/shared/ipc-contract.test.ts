import { describe, expect, it } from 'vitest';
import { INVOKE_SCHEMAS } from '../../../shared/ipc-contract';
import { createPanelApi, type PanelTransport } from '../../../shared/panel-api';
import { checkInvoke, checkSend } from '../../../shared/validate-message';

describe('contract validation', () => {
  it('accepts a well-formed request', () => {
    const checked = checkInvoke('chat:send', [{ content: 'hello', as: 'bot' }]);
    expect(checked).toEqual({ ok: true, value: { channel: 'chat:send', args: [{ content: 'hello', as: 'bot' }] } });
  });

  it.each([
    ['chat:send', [{ content: 'x'.repeat(501), as: 'bot' }], /content: must be at most 500/],
    ['chat:send', [{ content: 'hi', as: 'mod' }], /as/],
    ['chat:send', [{ content: 'hi', as: 'bot', extra: 1 }], /extra/],
    ['mod:timeout', [{ userId: 5, minutes: 10081 }], /minutes: must be between 1 and 10080/],
    ['mod:ban', [{ userId: 5, reason: 'r'.repeat(101) }], /reason: must be at most 100/],
    ['ads:run', [{ seconds: 6 }], /seconds/],
    ['rewards:create', [{ title: 't'.repeat(51), cost: 1 }], /title: must be at most 50/],
    ['stream:update', [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }], /tags: at most 10/],
    ['mod:ban', [], /./],
    ['mod:ban', ['5'], /./],
  ])('rejects a bad argument to %s naming the field', (channel, args, message) => {
    const checked = checkInvoke(channel, args);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.error.code).toBe('InvalidArgument');
      expect(checked.error.message).toMatch(message);
    }
  });

  it('rejects an unknown channel, including prototype names', () => {
    for (const channel of ['chat:nuke', 'constructor', '__proto__', 42, null]) {
      const checked = checkInvoke(channel, []);
      expect(checked).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } });
    }
    expect(checkSend('app:open-external', [{ url: 'file:///etc/passwd' }])).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument' },
    });
    expect(checkSend('app:open-external', [{ url: 'https://kick.com/settings/developer' }])).toMatchObject({
      ok: true,
    });
  });

  it('derives a named method for every channel', async () => {
    const calls: [string, unknown[]][] = [];
    const transport: PanelTransport = {
      invoke: (channel, args) => {
        calls.push([channel, args]);
        return Promise.resolve({ ok: true, value: null as never });
      },
      send: (channel, args) => void calls.push([channel, args]),
      on: () => () => undefined,
    };
    const api = createPanelApi(transport);
    await api.chat.send({ content: 'hi', as: 'bot' });
    await api.stream.searchCategories({ query: 'just' });
    api.window.popOutChat();
    expect(calls).toEqual([
      ['chat:send', [{ content: 'hi', as: 'bot' }]],
      ['stream:search-categories', [{ query: 'just' }]],
      ['window:pop-out-chat', []],
    ]);
    for (const channel of Object.keys(INVOKE_SCHEMAS)) {
      const [d, a] = channel.split(':') as [string, string];
      const method = (api as unknown as Record<string, Record<string, unknown>>)[d]![
        a.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
      ];
      expect(typeof method, channel).toBe('function');
    }
  });
});
