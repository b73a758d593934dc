/**
 * Whether the program holding the panel port looks like Greenroom itself: a second `npm start` while the
 * first runs should say Greenroom is probably running, not only that a port is taken. The panel server
 * answers a request without its token with a plain line that begins "Greenroom panel:" (panel-server.ts), so
 * one GET of `/` tells; anything else, no full answer within the time limit, or a refused connection means
 * another program.
 *
 * Any local program can answer with those words, so the answer is a hint, never proof: the line it leads to
 * names no address to open ([a taken panel port](../../docs/decisions.md#a-taken-panel-port-names-no-page)).
 * And the probe runs while the app is starting, so one deadline bounds it from the connect to the last byte:
 * a timer that does not restart on each byte, as a socket idle timeout would, so a server that trickles its
 * answer cannot stall the start.
 */
import { request } from 'node:http';

/** The start of every plain answer of Greenroom's panel server. */
const PANEL_ANSWER = 'Greenroom panel:';

/** Headers past this size end the probe: Greenroom's plain answers carry a few short headers. */
const MAX_HEADER_BYTES = 4096;

/** Resolves true when the server on `127.0.0.1:port` answers as Greenroom's panel server does, in time. */
export function isGreenroomPanel(port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/',
      method: 'GET',
      headers: { host: `127.0.0.1:${port}` },
      maxHeaderSize: MAX_HEADER_BYTES,
    });
    const settle = (value: boolean): void => {
      if (!settled) {
        settled = true;
        clearTimeout(deadline);
        req.destroy();
        resolve(value);
      }
    };
    // Set once, never restarted: the whole exchange must fit in it.
    const deadline = setTimeout(() => settle(false), timeoutMs);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        // Only the first words matter; more is never kept.
        if (body.length >= PANEL_ANSWER.length) {
          settle(body.startsWith(PANEL_ANSWER));
        }
      });
      res.on('end', () => settle(body.startsWith(PANEL_ANSWER)));
      res.on('error', () => settle(false));
    });
    req.on('error', () => settle(false));
    req.end();
  });
}

/**
 * The line a second start prints when the program on the panel port answers like Greenroom's panel. It
 * vouches for no page: the answer may come from another program that borrows the words.
 */
export function probablyRunningText(port: number): string {
  return (
    `the panel port ${port} is in use, probably by Greenroom already running (close it first); ` +
    'otherwise set GREENROOM_PANEL_PORT to another port (0 picks a free one)'
  );
}
