/** The whole body of an incoming request, for the test servers that stand between a client and the sandbox. */
import type { IncomingMessage } from 'node:http';

export async function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
