/**
 * What the create-app.test files share: their fixtures and helpers.
 */
import { request } from 'undici';

/** Plays the streamer's browser on the sandbox's consent page: loads it, approves as `userId`, follows the redirect. */
export function consentBrowser(userId: number) {
  const pages: { consent: string; callbackStatus: number }[] = [];
  const loads: Promise<void>[] = [];
  const visit = async (authorizeUrl: string): Promise<void> => {
    const consent = await request(authorizeUrl);
    const page = await consent.body.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1];
    if (consent.statusCode !== 200 || !requestId) {
      throw new Error(`expected the consent page, got ${consent.statusCode}`);
    }
    const decision = await request(new URL('/oauth/authorize/decision', authorizeUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request_id: requestId, user_id: String(userId), decision: 'approve' }).toString(),
    });
    await decision.body.text();
    const callback = await request(decision.headers.location as string);
    await callback.body.text();
    pages.push({ consent: page, callbackStatus: callback.statusCode });
  };
  return {
    pages,
    opened: [] as string[],
    open(url: string): Promise<void> {
      this.opened.push(url);
      const load = url.includes('/oauth/authorize') ? visit(url) : Promise.resolve();
      loads.push(load);
      return load;
    },
    settled: () => Promise.all(loads),
  };
}
