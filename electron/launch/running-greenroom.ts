/**
 * Whether the program holding the panel port is Greenroom itself: a second `npm start` while the first runs
 * should say "Greenroom is already running", not only that a port is taken. The panel server answers a
 * request without its token with a plain line that begins "Greenroom panel:" (panel-server.ts), so one GET
 * of `/` tells; anything else, no answer within the time limit, or a refused connection means another
 * program.
 */
import { request } from 'node:http';

/** The start of every plain answer of Greenroom's panel server. */
const PANEL_ANSWER = 'Greenroom panel:';

/** Resolves true when the server on `127.0.0.1:port` answers as Greenroom's panel server does. */
export function isGreenroomPanel(port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean): void => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    const req = request(
      { host: '127.0.0.1', port, path: '/', method: 'GET', headers: { host: `127.0.0.1:${port}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.length >= PANEL_ANSWER.length) {
            settle(body.startsWith(PANEL_ANSWER));
            req.destroy();
          }
        });
        res.on('end', () => settle(body.startsWith(PANEL_ANSWER)));
        res.on('error', () => settle(false));
      },
    );
    req.setTimeout(timeoutMs, () => {
      settle(false);
      req.destroy();
    });
    req.on('error', () => settle(false));
    req.end();
  });
}

/** The line a second start prints when the first Greenroom holds the panel port. */
export function alreadyRunningText(port: number): string {
  return `Greenroom is already running (its panel is at http://127.0.0.1:${port})`;
}
