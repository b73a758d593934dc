/**
 * A child process's output as lines, with a way to wait for one: journeys wait on what the app prints (its
 * panel URL, a start-up notice, the sign-in link), never on time.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Lines seen so far on one stream, and a wait for the next one that matches. */
export class OutputLines {
  readonly lines: string[] = [];
  readonly #waiters = new Set<(line: string | null) => void>();
  #ended = false;

  constructor(stream: NodeJS.ReadableStream) {
    const reader = createInterface({ input: stream });
    reader.on('line', (line) => {
      this.lines.push(line);
      for (const waiter of [...this.#waiters]) {
        waiter(line);
      }
    });
    reader.on('close', () => {
      this.#ended = true;
      for (const waiter of [...this.#waiters]) {
        waiter(null);
      }
    });
  }

  /**
   * The first line (from `from` on) matching `pattern`, or a rejection naming what was printed when the
   * stream ends or `timeoutMs` passes first.
   */
  waitFor(pattern: RegExp, options: { timeoutMs?: number; from?: number; describe?: () => string } = {}) {
    const { timeoutMs = 15_000, from = 0 } = options;
    const seen = this.lines.slice(from).find((line) => pattern.test(line));
    if (seen !== undefined) {
      return Promise.resolve(pattern.exec(seen)!);
    }
    return new Promise<RegExpExecArray>((resolve, reject) => {
      const fail = (why: string): void => {
        this.#waiters.delete(waiter);
        clearTimeout(timer);
        reject(new Error(`${why} waiting for ${String(pattern)}; ${options.describe?.() ?? this.lines.join('\n')}`));
      };
      const waiter = (line: string | null): void => {
        if (line === null) {
          fail('the output ended');
        } else if (pattern.test(line)) {
          this.#waiters.delete(waiter);
          clearTimeout(timer);
          resolve(pattern.exec(line)!);
        }
      };
      const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs);
      if (this.#ended) {
        fail('the output had ended');
        return;
      }
      this.#waiters.add(waiter);
    });
  }
}

/** Resolves with the exit code (or signal) once `child` has exited. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
