// Loaded with `--import` into Electron's installer (node_modules/electron/install.js) by
// scripts/install-electron.mjs, to see what the installer cannot tell us: which URL it fetches, how far the
// download has got, and why a request failed (its stack trace says only "fetch failed"). @electron/get's
// own progress bar appears only after 30 s and only on a terminal. It downloads with the global `fetch`
// (node_modules/@electron/get/dist/FetchDownloader.js), so this wraps `fetch` and only watches: every
// byte still flows to the installer unchanged. Should the installer stop using `fetch`, nothing is
// reported and the install works as before.
//
// Events go one JSON object per line to file descriptor 3, a pipe the parent opens; written synchronously
// so none is lost when the installer calls process.exit().
import { writeSync } from 'node:fs';

const EVENTS_FD = 3;
const realFetch = globalThis.fetch;

/** @param {Record<string, unknown>} event */
function report(event) {
  try {
    writeSync(EVENTS_FD, `${JSON.stringify(event)}\n`);
  } catch {
    // No pipe on fd 3 (run by hand): progress is a nicety, the install goes on.
  }
}

/** @param {unknown} input */
function urlOf(input) {
  if (typeof input === 'string') {
    return input;
  }
  if (input instanceof URL) {
    return input.href;
  }
  return input instanceof Request ? input.url : String(input);
}

/** @param {unknown} error the error fetch rejected with; undici puts the socket's error in `cause` */
function codeOf(error) {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause && typeof cause === 'object' && 'code' in cause ? cause.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** @type {typeof fetch} */
async function watchedFetch(input, init) {
  const url = urlOf(input);
  report({ type: 'request', url });
  let response;
  try {
    response = await realFetch(input, init);
  } catch (error) {
    report({ type: 'error', url, code: codeOf(error), message: error instanceof Error ? error.message : '' });
    throw error;
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isSafeInteger(length) && length > 0 ? length : null;
  report({ type: 'response', url, status: response.status, total });
  if (!response.ok || !response.body) {
    return response;
  }
  let transferred = 0;
  let reported = 0;
  // One event per percent (or per MiB when the size is unknown) keeps a 100 MB download to ~100 lines.
  const step = total ? total / 100 : 1024 * 1024;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        transferred += chunk.byteLength;
        if (transferred - reported >= step) {
          reported = transferred;
          report({ type: 'progress', url, transferred, total });
        }
        controller.enqueue(chunk);
      },
      flush() {
        report({ type: 'done', url, transferred, total });
      },
    }),
  );
  // Replacing only `body` keeps status, headers and url as the installer expects them.
  Object.defineProperty(response, 'body', { value: counted });
  return response;
}

globalThis.fetch = watchedFetch;
