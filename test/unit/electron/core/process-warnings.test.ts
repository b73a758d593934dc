/**
 * Node's process warnings reach the app's logger instead of Node's own printer (docs/logging.md#nodes-own-warnings):
 * a library's `url.parse` deprecation at debug, any other warning as a warn line. The last case runs a real Node,
 * whose printer is what a streamer saw in the terminal.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBRARY_DEPRECATIONS, logProcessWarnings, warningSwitches } from '../../../../electron/core/process-warnings';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

function warning(name: string, message: string, code?: string): Error {
  return Object.assign(new Error(message), { name, ...(code === undefined ? {} : { code }) });
}

describe('process warnings', () => {
  it('takes the place of every other warning listener', () => {
    const emitter = new EventEmitter();
    const printed: Error[] = [];
    emitter.on('warning', (w: Error) => printed.push(w));
    const lines: string[] = [];
    logProcessWarnings(emitter, { debug: (m) => lines.push(`debug ${m}`), warn: (m) => lines.push(`warn ${m}`) });
    emitter.emit('warning', warning('DeprecationWarning', 'url.parse() behavior is not standardized', 'DEP0169'));
    emitter.emit('warning', warning('MaxListenersExceededWarning', 'Possible EventEmitter memory leak detected'));
    emitter.emit('warning', warning('DeprecationWarning', 'Buffer() is deprecated', 'DEP0005'));
    expect(printed).toEqual([]);
    expect(lines).toEqual([
      'debug node: a library uses a feature Node plans to change',
      'warn node: MaxListenersExceededWarning: Possible EventEmitter memory leak detected',
      'warn node: DeprecationWarning: Buffer() is deprecated',
    ]);
  });

  it('keeps the warning in the fields, at debug too', () => {
    const emitter = new EventEmitter();
    const fields: unknown[] = [];
    logProcessWarnings(emitter, { debug: (_m, f) => fields.push(f), warn: (_m, f) => fields.push(f) });
    emitter.emit('warning', warning('DeprecationWarning', 'url.parse() is deprecated', 'DEP0169'));
    expect(fields).toEqual([{ name: 'DeprecationWarning', code: 'DEP0169', detail: 'url.parse() is deprecated' }]);
    expect(LIBRARY_DEPRECATIONS.has('DEP0169')).toBe(true);
  });

  it('keeps to Node’s own switches: quiet at debug only, traced with the stack', () => {
    const emitter = new EventEmitter();
    const lines: { level: string; message: string; fields: Record<string, unknown> | undefined }[] = [];
    const logger = {
      debug: (message: string, fields?: Record<string, unknown>) => lines.push({ level: 'debug', message, fields }),
      warn: (message: string, fields?: Record<string, unknown>) => lines.push({ level: 'warn', message, fields }),
    };
    logProcessWarnings(emitter, logger, { quiet: true, trace: true });
    const leak = warning('MaxListenersExceededWarning', 'Possible EventEmitter memory leak detected');
    emitter.emit('warning', leak);
    expect(lines).toEqual([
      {
        level: 'debug',
        message: 'node: MaxListenersExceededWarning: Possible EventEmitter memory leak detected',
        fields: expect.objectContaining({ stack: leak.stack }),
      },
    ]);
    expect(warningSwitches({}, {})).toEqual({ quiet: false, trace: false });
    expect(warningSwitches({}, { NODE_NO_WARNINGS: '1' })).toEqual({ quiet: true, trace: false });
    expect(warningSwitches({ noProcessWarnings: true, traceProcessWarnings: true }, {})).toEqual({
      quiet: true,
      trace: true,
    });
  });

  it('leaves nothing of url.parse on a real Node’s stderr, and logs another warning once', () => {
    const script = `
      import { createRequire } from 'node:module';
      import { createLogger } from ${JSON.stringify(join(ROOT, 'electron/core/logger.ts'))};
      import { logProcessWarnings, warningSwitches } from ${JSON.stringify(join(ROOT, 'electron/core/process-warnings.ts'))};
      const logger = createLogger({ level: 'info', clock: { now: () => 0 }, echo: (l) => process.stderr.write(l + '\\n') });
      logProcessWarnings(process, logger, warningSwitches(process, process.env));
      createRequire(import.meta.url)('node:url').parse('http://127.0.0.1:1/app');
      process.emitWarning('something odd', 'Warning', 'GR0001');
      setTimeout(() => undefined, 50);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/DEP0169|url\.parse|DeprecationWarning/);
    const lines = run.stderr.split('\n').filter((line) => line.includes('something odd'));
    expect(lines).toEqual([expect.stringContaining('node: Warning: something odd')]);
    // Started with --trace-warnings, the line says where the warning came from.
    const traced = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--trace-warnings', '--input-type=module', '-e', script],
      { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
    );
    expect(traced.stderr).toMatch(/node: Warning: something odd .*"stack":"Warning: something odd\\n\s*at /);
  });
});
