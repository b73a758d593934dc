/**
 * Waits for a condition outside a test body (hooks cannot use `expect.poll`): checks `probe` until it
 * returns true, and fails naming `what` and the last value seen once `timeoutMs` passes.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
