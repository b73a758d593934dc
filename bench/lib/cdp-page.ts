/**
 * The panel page for the storm benchmarks: headless Debian Chromium driven over its DevTools pipe with only
 * the domains the benchmark reads, instead of through Playwright.
 *
 * Playwright turns on DevTools' network domain for every page it drives, so Chromium copied each of the
 * panel's WebSocket frames (about 250 a second in a raid) to the benchmark, and the benchmark parsed them:
 * work no streamer's OBS dock does, paid on the same two cores the figures measure (docs/decisions.md, "The
 * storm's chatters run below the app"). Here the page is told only to run the probe, report its heap and
 * metrics, and answer evaluations.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';
import { CHROMIUM_ARGS } from '../../test/e2e/harness';
import { makeTempDir, removeTempDir, startedProcess } from './started';

/** Debian's Chromium, or the program `GREENROOM_BENCH_CHROMIUM` names (a test points it at nothing). */
export function chromiumPath(): string {
  return process.env.GREENROOM_BENCH_CHROMIUM || '/usr/bin/chromium';
}

/** Playwright's own switches for a headless Chromium that nothing in the background slows (its defaults). */
const QUIET_SWITCHES = [
  '--disable-field-trial-config',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-component-extensions-with-background-pages',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--no-service-autorun',
  '--hide-scrollbars',
  '--mute-audio',
];

export interface PageOptions {
  url: string;
  width: number;
  height: number;
  /** Run before the page's own scripts, in every document it loads. */
  initScripts: string[];
  extraArgs?: string[];
}

export interface CdpPage {
  /** The browser's process id (its other processes are its descendants). */
  pid: number | undefined;
  /** A DevTools command to the page. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Evaluates `expression` in the page and returns its value (awaited, by value). */
  evaluate<T>(expression: string): Promise<T>;
  /** Resolves once `expression` is truthy in the page, or rejects after `timeoutMs`. */
  waitFor(expression: string, timeoutMs: number): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

interface Reply {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

/** Starts Chromium, opens `options.url` in a page of the given size with the dark colour scheme. */
export async function openPage(options: PageOptions): Promise<CdpPage> {
  const program = chromiumPath();
  try {
    accessSync(program, constants.X_OK);
  } catch {
    throw new Error(`Chromium is not installed at ${program} (GREENROOM_BENCH_CHROMIUM names another)`);
  }
  const profile = makeTempDir('greenroom-bench-chromium-');
  const child: ChildProcess = spawn(
    program,
    [
      ...CHROMIUM_ARGS,
      ...QUIET_SWITCHES,
      ...(options.extraArgs ?? []),
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  startedProcess(child);
  const toBrowser = child.stdio[3] as NodeJS.WritableStream;
  const fromBrowser = child.stdio[4] as NodeJS.ReadableStream;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let buffered = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\0')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, end)) as Reply;
      buffered = buffered.slice(end + 1);
      const pending = reply.id === undefined ? undefined : waiting.get(reply.id);
      if (pending) {
        waiting.delete(reply.id!);
        if (reply.error) {
          pending.reject(new Error(`DevTools: ${reply.error.message}`));
        } else {
          pending.resolve(reply.result);
        }
      }
    }
  });
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  // A pipe to a browser that died answers EPIPE; its exit is what the benchmark is told.
  toBrowser.on('error', () => undefined);
  void exited.then(() => {
    gone = true;
    for (const pending of waiting.values()) {
      pending.reject(new Error('Chromium exited'));
    }
    waiting.clear();
  });
  const command = <T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (gone) {
        reject(new Error('Chromium exited'));
        return;
      }
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  let sessionId = '';
  const send = <T>(method: string, params: Record<string, unknown> = {}): Promise<T> =>
    command<T>(method, params, sessionId);
  try {
    const { targetInfos } = await command<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'page');
    const targetId =
      target?.targetId ?? (await command<{ targetId: string }>('Target.createTarget', { url: 'about:blank' })).targetId;
    sessionId = (await command<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true })).sessionId;

    await send('Page.enable');
    await send('Emulation.setDeviceMetricsOverride', {
      width: options.width,
      height: options.height,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
    for (const source of options.initScripts) {
      await send('Page.addScriptToEvaluateOnNewDocument', { source });
    }
    await send('Page.navigate', { url: options.url });
  } catch (error) {
    // A browser that started but never gave a page is not left running, nor its profile on disk.
    child.kill('SIGKILL');
    await exited;
    removeTempDir(profile);
    throw error;
  }

  const evaluate = async <T>(expression: string): Promise<T> => {
    const answer = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string } }>(
      'Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true },
    );
    if (answer.exceptionDetails) {
      throw new Error(`in the page: ${answer.exceptionDetails.text}`);
    }
    return answer.result.value as T;
  };
  return {
    pid: child.pid,
    send,
    evaluate,
    async waitFor(expression, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!(await evaluate<boolean>(`Boolean(${expression})`))) {
        if (Date.now() > deadline) {
          throw new Error(`the page never showed ${expression}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async screenshot(path) {
      const { data } = await send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
      writeFileSync(path, Buffer.from(data, 'base64'));
    },
    async close() {
      await command('Browser.close').catch(() => undefined);
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
      removeTempDir(profile);
    },
  };
}
