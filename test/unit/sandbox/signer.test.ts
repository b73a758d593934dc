import { generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadSigner, type Signer } from '../../../sandbox/webhooks/signer';
import { signedBytes, signWebhook } from '../../../sandbox/webhooks/sign';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe('the sandbox signing threads', () => {
  let signer: Signer | null = null;
  afterEach(async () => {
    await signer?.close();
    signer = null;
  });

  it('signs as Kick does (the same bytes, the same signature as the in-thread signer)', async () => {
    signer = createThreadSigner(privateKey);
    const input = { messageId: 'msg-1', timestamp: '2026-11-24T07:00:00Z', body: '{"a":1}' };
    const signature = await signer.sign(signedBytes(input));
    // PKCS#1 v1.5 is deterministic: the thread's signature equals the one computed here.
    expect(signature).toBe(signWebhook({ ...input, privateKey }));
    expect(verify('sha256', signedBytes(input), publicKey, Buffer.from(signature, 'base64'))).toBe(true);
  });

  it('keeps every answer with its request across threads', async () => {
    signer = createThreadSigner(privateKey, 3);
    const inputs = Array.from({ length: 60 }, (_, i) => ({ messageId: `m${i}`, timestamp: 't', body: `{"i":${i}}` }));
    const signatures = await Promise.all(inputs.map((input) => signer!.sign(signedBytes(input))));
    inputs.forEach((input, i) => {
      expect(verify('sha256', signedBytes(input), publicKey, Buffer.from(signatures[i]!, 'base64'))).toBe(true);
    });
  });

  it('hands signatures out in the order they were asked for, whichever thread finishes first', async () => {
    signer = createThreadSigner(privateKey, 3);
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 120 }, (_, i) => signer!.sign(Buffer.from(`delivery ${i}`)).then(() => done.push(i))),
    );
    expect(done).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });

  it('refuses to sign once closed', async () => {
    const closing = createThreadSigner(privateKey, 1);
    await closing.close();
    await expect(closing.sign(Buffer.from('x'))).rejects.toThrow(/closed/);
  });
});
