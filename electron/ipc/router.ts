/**
 * The contract's router, written once for both transports (Electron IPC and the panel WebSocket): every
 * message is validated against the contract before a handler sees it, and whatever a handler does comes
 * back as a value. An expected failure (an AppError) crosses as its code and message; anything else is a
 * bug, logged here with its stack and answered `Internal` with no detail, so no stack, path or secret
 * reaches the panel. The transports check the sender; this checks the message.
 */
import { type ErrorValue, isAppError, type Result } from '../../shared/errors';
import type { InvokeArgs, InvokeChannel, InvokeResults, SendArgs, SendChannel } from '../../shared/ipc-contract';
import { checkInvoke, checkSend } from '../../shared/validate-message';
import { redactText } from '../secrets/redact';

/** One typed handler per request channel, taking the validated arguments. */
export type InvokeHandlers = { [C in InvokeChannel]: (...args: InvokeArgs<C>) => Promise<InvokeResults[C]> };

/** One typed handler per fire-and-forget channel. */
export type SendHandlers = { [C in SendChannel]: (...args: SendArgs<C>) => void | Promise<void> };

/** What both transports call with the raw channel and arguments they received. */
export interface Router {
  /** Validates and runs a request; never rejects. */
  invoke(channel: unknown, args: unknown): Promise<Result<unknown>>;
  /** Validates and runs a fire-and-forget message; never throws (problems are logged). */
  send(channel: unknown, args: unknown): void;
}

/** The typed handlers and where failures are logged. */
export interface RouterDeps {
  handlers: { invoke: InvokeHandlers; send: SendHandlers };
  log: (line: string) => void;
}

const INTERNAL: ErrorValue = {
  code: 'Internal',
  message: 'Something went wrong in Greenroom; the details are in its log',
};

/** Builds the router over the handlers. */
export function createRouter({ handlers, log }: RouterDeps): Router {
  const report = (channel: string, error: unknown): void => {
    const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    try {
      log(redactText(`ipc: ${channel} failed: ${detail}`));
    } catch {
      // A broken logger must not turn a handled failure into an unhandled one.
    }
  };

  return {
    async invoke(channel, args) {
      const checked = checkInvoke(channel, args);
      if (!checked.ok) {
        return { ok: false, error: checked.error };
      }
      const name = checked.value.channel;
      // The contract pairs each channel with its arguments; TypeScript cannot follow that through a union.
      const handler = handlers.invoke[name] as (...a: unknown[]) => Promise<unknown>;
      try {
        return { ok: true, value: await handler(...(checked.value.args as unknown[])) };
      } catch (error) {
        if (isAppError(error)) {
          return { ok: false, error: error.toValue() };
        }
        report(name, error);
        return { ok: false, error: INTERNAL };
      }
    },

    send(channel, args) {
      const checked = checkSend(channel, args);
      if (!checked.ok) {
        log(`ipc: dropped a message: ${checked.error.code}: ${checked.error.message}`);
        return;
      }
      const name = checked.value.channel;
      const handler = handlers.send[name] as (...a: unknown[]) => void | Promise<void>;
      try {
        const result = handler(...(checked.value.args as unknown[]));
        if (result instanceof Promise) {
          result.catch((error: unknown) => report(name, error));
        }
      } catch (error) {
        report(name, error);
      }
    },
  };
}
