/**
 * The chat storm's load generator on a worker thread of its own, at the lowest priority on Linux.
 *
 * It stands in for a raid's chatters, who are not on the streamer's machine; the benchmark shares two cores
 * with the app and the panel, and at normal priority its 400 admin requests a second (about a sixth of a
 * core) took turns from both while the figure measured them (docs/decisions.md, "The storm's chatters run
 * below the app"). On its own thread it can be lowered without lowering the rest of this process: the
 * observer that drains the page and the app and Chromium started from this thread keep normal priority.
 * What the generator's pace costs is visible anyway: send → handover is printed beside the figure.
 */
import { Worker } from 'node:worker_threads';
import type { SenderJob, SenderReport } from './storm-sender-worker';

/**
 * Runs `job` on the worker; `onSent` hears each message sent. Resolves once all were answered, with the
 * nice value the sending thread ran at (19 on Linux, where it lowers itself).
 */
export function runSender(
  job: SenderJob,
  onSent: (sent: { id: string; sentAtMs: number }) => void,
): Promise<{ priority: number }> {
  const script = new URL('./storm-sender-worker.ts', import.meta.url).href;
  // Worker threads do not inherit tsx's loader; the worker registers it before loading the script.
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); })`,
    { eval: true, workerData: job },
  );
  return new Promise<{ priority: number }>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: Error | { priority: number }): void => {
      if (!settled) {
        settled = true;
        void worker.terminate();
        if (outcome instanceof Error) {
          reject(outcome);
        } else {
          resolve(outcome);
        }
      }
    };
    worker.on('message', (report: SenderReport) => {
      if (report.kind === 'sent') {
        report.sent.forEach(onSent);
      } else {
        settle(report.kind === 'done' ? { priority: report.priority } : new Error(report.message));
      }
    });
    worker.on('error', (error) => settle(error));
    worker.on('exit', (code) => settle(new Error(`the storm's sender stopped early (exit ${code})`)));
  });
}
