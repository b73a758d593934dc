/**
 * Emote images for the chat box overlay, fetched by main from the emote host (Kick's CDN, or the sandbox)
 * and served by the panel server under `/overlay/emotes/<id>/fullsize`: an overlay page loads nothing from
 * outside the machine (docs/overlays.md), and a raid's repeated emotes cost Kick one request each.
 * Bounded by entries and bytes; concurrent requests for one emote share one fetch; a failure is not kept,
 * so a later request tries again.
 */
import { request, type Dispatcher } from 'undici';

export interface EmoteImage {
  body: Buffer;
  contentType: string;
}

export interface EmoteCacheDeps {
  /** The emote host's origin now (it changes when the app switches between the sandbox and Kick). */
  host: () => string;
  dispatcher?: Dispatcher;
  log: (line: string) => void;
  maxEntries?: number;
  maxBytes?: number;
}

/** Kick's emote ids are numbers; the sandbox's too. Anything else never reaches the network. */
export const EMOTE_ID = /^[0-9]{1,20}$/;
/** Larger than any emote Kick serves; a bigger answer is refused rather than buffered. */
const MAX_EMOTE_BYTES = 1024 * 1024;

export class EmoteCache {
  readonly #options: EmoteCacheDeps;
  readonly #kept = new Map<string, EmoteImage>();
  readonly #fetching = new Map<string, Promise<EmoteImage | null>>();
  #bytes = 0;

  constructor(options: EmoteCacheDeps) {
    this.#options = options;
  }

  /** The emote's image, or null when the id is not an emote id or the host has no such image. */
  get(id: string): Promise<EmoteImage | null> {
    if (!EMOTE_ID.test(id)) {
      return Promise.resolve(null);
    }
    const kept = this.#kept.get(id);
    if (kept) {
      // Least recently used goes first: move it to the end.
      this.#kept.delete(id);
      this.#kept.set(id, kept);
      return Promise.resolve(kept);
    }
    let fetching = this.#fetching.get(id);
    if (!fetching) {
      fetching = this.#fetch(id).finally(() => this.#fetching.delete(id));
      this.#fetching.set(id, fetching);
    }
    return fetching;
  }

  async #fetch(id: string): Promise<EmoteImage | null> {
    const url = `${this.#options.host().replace(/\/+$/, '')}/emotes/${id}/fullsize`;
    const fail = (reason: string): null => {
      this.#options.log(`overlays: emote ${id} could not be fetched (${reason})`);
      return null;
    };
    try {
      const response = await request(url, {
        dispatcher: this.#options.dispatcher,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      const contentType = String(response.headers['content-type'] ?? '');
      const length = Number(response.headers['content-length'] ?? 0);
      if (response.statusCode !== 200 || !contentType.startsWith('image/')) {
        await response.body.dump();
        return null;
      }
      if (length > MAX_EMOTE_BYTES) {
        response.body.destroy();
        return fail(TOO_LARGE);
      }
      const body = await readCapped(response.body, MAX_EMOTE_BYTES);
      if (body === null) {
        return fail(TOO_LARGE);
      }
      const image = { body, contentType };
      this.#keep(id, image);
      return image;
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }

  #keep(id: string, image: EmoteImage): void {
    this.#kept.set(id, image);
    this.#bytes += image.body.length;
    const maxEntries = this.#options.maxEntries ?? 1000;
    const maxBytes = this.#options.maxBytes ?? 16 * 1024 * 1024;
    for (const [oldest, kept] of this.#kept) {
      if (this.#kept.size <= maxEntries && this.#bytes <= maxBytes) {
        break;
      }
      this.#kept.delete(oldest);
      this.#bytes -= kept.body.length;
    }
  }
}

const TOO_LARGE = `the image is larger than ${MAX_EMOTE_BYTES / 1024 / 1024} MiB, the most an emote may be; stopped reading it`;

/**
 * The body, read as it streams in and given up at `max` bytes: a chunked answer names no length up front,
 * and read whole first it would sit in memory (twice, as chunks and as one buffer) however large it is.
 * Past the cap the body is destroyed, which closes the connection, so the server stops sending too.
 */
async function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > max) {
      body.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}
