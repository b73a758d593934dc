/**
 * Where the sandbox's webhook signatures are computed: one worker thread of its own, at a low CPU priority
 * where the platform allows it per thread (Linux).
 *
 * Why not libuv's thread pool (Node's async `crypto.sign`): the embedded sandbox lives in the app's process,
 * and that pool also runs the app's file system calls. At a raid's 400 deliveries a second, the journal's
 * writes and fsyncs queued behind the sandbox's RSA signatures, and on a two-core machine the pool's busy
 * threads took the CPU from the app's event loop, for work real Kick does on its own servers. Threads of its
 * own, niced, keep simulating Kick from slowing the app it simulates Kick for
 * ([decisions](../../docs/decisions.md#the-embedded-sandbox-signs-on-threads-of-its-own)).
 *
 * On macOS and Windows a priority can only be set for the whole process, so the thread runs at normal
 * priority there; it still keeps the pool free.
 */
import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

export interface Signer {
  /** The base64 RSASSA-PKCS1-v1_5 SHA-256 signature of the bytes. */
  sign(bytes: Buffer): Promise<string>;
  /** Ends the thread; signatures still pending are refused. */
  close(): Promise<void>;
}

/** Plain CommonJS for `eval`: no file to find, whether the sandbox runs from source, a bundle or a test. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { sign } = require('node:crypto');
if (process.platform === 'linux') {
  // Linux keeps a nice value per thread: this lowers only the signing thread.
  try { require('node:os').setPriority(0, 10); } catch {}
}
parentPort.on('message', ({ id, bytes }) => {
  try {
    parentPort.postMessage({ id, signature: sign('sha256', bytes, workerData.key).toString('base64') });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Answer {
  id: number;
  signature?: string;
  error?: string;
}

/**
 * Signers on `threads` low-priority threads of their own, taking turns; the threads never keep the process
 * alive. Two by default: a two-core machine signs as fast as libuv's pool of four did.
 */
export function createThreadSigner(privateKey: KeyObject, threads = 2): Signer {
  const signers = Array.from({ length: Math.max(1, threads) }, () => startSigningThread(privateKey));
  let turn = 0;
  // Signatures are handed out in the order they were asked for: the threads sign side by side, but a
  // delivery must not overtake the one queued before it because its thread happened to be quicker (Kick's
  // own deliveries arrive in order unless delayed; tests and streamers read chat in that order).
  let previous: Promise<unknown> = Promise.resolve();
  return {
    sign(bytes) {
      turn = (turn + 1) % signers.length;
      const signing = signers[turn]!.sign(bytes);
      const inOrder = previous.then(
        () => signing,
        () => signing,
      );
      previous = inOrder.catch(() => undefined);
      return inOrder;
    },
    async close() {
      await Promise.all(signers.map((signer) => signer.close()));
    },
  };
}

function startSigningThread(privateKey: KeyObject): Signer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { key: privateKey } });
  worker.unref();
  const pending = new Map<number, { resolve: (signature: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let closed: Error | null = null;
  const failAll = (error: Error): void => {
    closed ??= error;
    for (const waiter of pending.values()) {
      waiter.reject(error);
    }
    pending.clear();
  };
  worker.on('message', (answer: Answer) => {
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.signature !== undefined) {
      waiter?.resolve(answer.signature);
    } else {
      waiter?.reject(new Error(`signing failed: ${answer.error ?? 'unknown error'}`));
    }
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', () => failAll(new Error('the signing thread ended')));
  return {
    sign(bytes) {
      if (closed) {
        return Promise.reject(closed);
      }
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, bytes });
      });
    },
    async close() {
      failAll(new Error('the signer was closed'));
      await worker.terminate();
    },
  };
}
