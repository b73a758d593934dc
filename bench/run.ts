/**
 * `npm run bench [-- <name> …]`: runs each benchmark module (or the named ones) and prints one line per
 * figure in the format [design notes](../docs/design-notes.md#benchmarks-print-one-line-per-figure) fix. Ratios are measured side by side within one module's run.
 *
 * A module that cannot run (Chromium missing, a port taken, a build failing, a crash) still prints its figures,
 * as NaN and short with the reason, and whatever it started is stopped and its temp dirs removed before the next
 * module, on every path ([bench/README.md](README.md#when-a-module-cannot-run)).
 */
import { stopEverything, stopEverythingNow } from './lib/started';
import { formatFigure, reasonOf, unmeasured } from './lib/bench-line';
import { MODULES } from './modules';
import type { BenchModule, BenchResult } from './types';

/**
 * Runs one module to its end or its failure. An error thrown outside the module's own promise chain (an
 * unhandled event of a child process, say) is the module's failure too, not the end of the whole run.
 */
async function runModule(name: string): Promise<BenchResult[]> {
  let module: BenchModule | undefined;
  let onCrash: ((error: unknown) => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    onCrash = reject;
  });
  process.on('uncaughtException', onCrash!);
  process.on('unhandledRejection', onCrash!);
  try {
    crashed.catch(() => undefined);
    module = await MODULES[name]!();
    // A module abandoned after a crash may still reject later; that is no longer anyone's failure.
    const running = module.run();
    running.catch(() => undefined);
    return await Promise.race([running, crashed]);
  } catch (error) {
    const reason = reasonOf(error);
    console.error(`${name}: could not run: ${error instanceof Error ? (error.stack ?? error.message) : reason}`);
    process.exitCode = 1;
    return unmeasured(name, module?.figures, reason);
  } finally {
    process.off('uncaughtException', onCrash!);
    process.off('unhandledRejection', onCrash!);
    const stopped = await stopEverything();
    if (stopped.processes > 0 || stopped.dirs > 0) {
      console.error(
        `${name}: stopped ${stopped.processes} processes it left running, removed ${stopped.dirs} temp dirs`,
      );
    }
  }
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = Object.keys(MODULES).filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)));
  if (names.length === 0) {
    console.error(`no benchmark matches ${wanted.join(' ')}; known: ${Object.keys(MODULES).join(', ')}`);
    process.exit(2);
  }
  // Interrupted (Ctrl-C, a CI timeout) or exiting: nothing started here outlives this process.
  process.on('exit', stopEverythingNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`bench: ${signal}; stopping what the benchmarks started`);
      void stopEverything().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  for (const name of names) {
    for (const result of await runModule(name)) {
      console.log(formatFigure(result));
    }
  }
  // A module that failed may leave a timer or socket behind; the run is over either way.
  process.exit();
}

await main();
