/**
 * What both entries print once Greenroom runs, after the panel's URL: the local webhook receiver's exact
 * URL (what a streamer's own tunnel or reverse proxy forwards to) and, in sandbox mode, the embedded
 * sandbox's admin API (where `npm run sandbox -- trigger …` and scripts send their requests).
 */
import { join } from 'node:path';
import type { GreenroomApp } from '../app/create-app';
import { APP_SANDBOX_FILE } from '../app/embedded-sandbox';

/** The receiver line, and the sandbox admin line in sandbox mode. */
export function startupLines(app: Pick<GreenroomApp, 'snapshot' | 'sandbox'>, dataDir: string): string[] {
  const lines: string[] = [];
  const receiver = app.snapshot().health.receiver.url;
  if (receiver) {
    lines.push(`Webhook receiver: ${receiver}`);
  }
  if (app.sandbox) {
    lines.push(
      `Sandbox admin API: ${app.sandbox.urls.admin} (its token is in ${join(dataDir, APP_SANDBOX_FILE)}; ` +
        'npm run sandbox -- trigger … finds it there)',
    );
  }
  return lines;
}
