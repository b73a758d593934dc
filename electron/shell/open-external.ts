/**
 * The guard in front of `shell.openExternal`: the system browser only ever gets an https URL, or an http
 * URL on this computer (the embedded or a standalone sandbox's sign-in page). `file:`, custom protocol
 * handlers and URLs with credentials are refused, whoever asks. Which hosts the panel's own links may
 * reach is decided earlier, by the handlers' link policy.
 */
import { AppError } from '../../shared/errors';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether the system browser may be sent to `url`. */
export function isOpenableUrl(url: string): boolean {
  if (!URL.canParse(url)) {
    return false;
  }
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') {
    return false;
  }
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname));
}

/** Wraps an opener so it refuses anything `isOpenableUrl` does not allow. */
export function guardOpenExternal(open: (url: string) => Promise<void>): (url: string) => Promise<void> {
  return (url) => {
    if (!isOpenableUrl(url)) {
      return Promise.reject(new AppError('InvalidArgument', 'only https links (or this computer over http) open'));
    }
    return open(url);
  };
}
