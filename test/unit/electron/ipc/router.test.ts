import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { createRouter, type InvokeHandlers, type SendHandlers } from '../../../../electron/ipc/router';

/** Handlers that fail the test if called, except the ones a test provides. */
function handlers(
  invoke: Partial<InvokeHandlers> = {},
  send: Partial<SendHandlers> = {},
): { invoke: InvokeHandlers; send: SendHandlers } {
  const refuse = (channel: string) => () => {
    throw new Error(`handler ${channel} must not run`);
  };
  return {
    invoke: new Proxy(invoke, {
      get: (target, key: string) => (target as Record<string, unknown>)[key] ?? refuse(key),
    }) as InvokeHandlers,
    send: new Proxy(send, {
      get: (target, key: string) => (target as Record<string, unknown>)[key] ?? refuse(key),
    }) as SendHandlers,
  };
}

describe('router', () => {
  it('runs a valid request with the parsed arguments and wraps the value', async () => {
    const timeout = vi.fn((input: { userId: number; minutes: number }) =>
      Promise.resolve({
        id: 'a1',
        kind: 'timeout' as const,
        atMs: 1,
        targetUserId: input.userId,
        targetUsername: null,
        ok: true,
      }),
    );
    const router = createRouter({ handlers: handlers({ 'mod:timeout': timeout }), log: () => undefined });
    const result = await router.invoke('mod:timeout', [{ userId: 7, minutes: 10 }]);
    expect(result).toEqual({ ok: true, value: expect.objectContaining({ targetUserId: 7, kind: 'timeout' }) });
    expect(timeout).toHaveBeenCalledWith({ userId: 7, minutes: 10 });
  });

  it('answers a bad argument with InvalidArgument naming the field, without calling the handler', async () => {
    const router = createRouter({ handlers: handlers(), log: () => undefined });
    const result = await router.invoke('mod:timeout', [{ userId: 7, minutes: 0 }]);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: expect.stringMatching(/minutes/) },
    });
    const extra = await router.invoke('chat:send', [{ content: 'hi', as: 'bot', sneaky: true }]);
    expect(extra).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
  });

  it('answers an unknown channel with UnknownChannel', async () => {
    const router = createRouter({ handlers: handlers(), log: () => undefined });
    for (const channel of ['chat:nuke', '__proto__', 'toString', 42, undefined]) {
      await expect(router.invoke(channel, [])).resolves.toMatchObject({ ok: false, error: { code: 'UnknownChannel' } });
    }
  });

  it('turns a thrown AppError into its value, details included', async () => {
    const router = createRouter({
      handlers: handlers({
        'ads:run': () =>
          Promise.reject(new AppError('Conflict', 'an ad break is still running', { details: { status: 409 } })),
      }),
      log: () => undefined,
    });
    await expect(router.invoke('ads:run', [{ seconds: 30 }])).resolves.toEqual({
      ok: false,
      error: { code: 'Conflict', message: 'an ad break is still running', details: { status: 409 } },
    });
  });

  it('turns a bug into Internal with no stack or message, and logs it redacted', async () => {
    const lines: string[] = [];
    const router = createRouter({
      handlers: handlers({
        'rewards:list': () => {
          throw new TypeError('cannot read x of undefined; Bearer abc.def.ghi at /home/me/secret/path.ts');
        },
      }),
      log: (line) => lines.push(line),
    });
    const result = await router.invoke('rewards:list', []);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('Internal');
      expect(JSON.stringify(result.error)).not.toMatch(/TypeError|undefined|path\.ts|abc\.def/);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/rewards:list failed: TypeError/);
    expect(lines[0]).not.toContain('abc.def.ghi');
  });

  it('validates fire-and-forget messages, drops bad ones with a log line, and isolates handler failures', async () => {
    const lines: string[] = [];
    const opened: string[] = [];
    const router = createRouter({
      handlers: handlers(
        {},
        {
          'app:open-external': (input) => {
            opened.push(input.url);
          },
          'window:pop-out-chat': () => Promise.reject(new Error('no window')),
        },
      ),
      log: (line) => lines.push(line),
    });
    router.send('app:open-external', [{ url: 'https://kick.com/x' }]);
    router.send('app:open-external', [{ url: 'file:///etc/passwd' }]);
    router.send('window:self-destruct', []);
    expect(() => router.send('window:pop-out-chat', [])).not.toThrow();
    await Promise.resolve();
    await Promise.resolve();
    expect(opened).toEqual(['https://kick.com/x']);
    expect(lines.join('\n')).toMatch(/InvalidArgument/);
    expect(lines.join('\n')).toMatch(/UnknownChannel/);
    expect(lines.join('\n')).toMatch(/window:pop-out-chat failed: Error: no window/);
  });
});
