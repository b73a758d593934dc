import type { SandboxContext } from '../context';

export interface DeliveryOptions {
  /** Milliseconds between delivery passes on the real timer. */
  tickMs: number;
}

// STUB: to be implemented.
export class DeliveryEngine {
  readonly #ctx: SandboxContext;
  readonly #options: DeliveryOptions;
  constructor(ctx: SandboxContext, options: Partial<DeliveryOptions> = {}) {
    this.#ctx = ctx;
    this.#options = { tickMs: 100, ...options };
  }
  start(): void {
    void this.#ctx;
    void this.#options;
  }
  async stop(): Promise<void> {}
}
