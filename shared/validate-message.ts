/**
 * Runtime validation of incoming contract messages, shared by the Electron IPC registrar and the panel
 * WebSocket server: an unknown channel or a bad argument becomes an ErrorValue naming the problem.
 */
import type { Result } from './errors';
import { fieldDetails, fieldPath, withoutFieldPrefix } from './field-refusal';
import {
  INVOKE_SCHEMAS,
  type InvokeArgs,
  type InvokeChannel,
  isInvokeChannel,
  isSendChannel,
  SEND_SCHEMAS,
  type SendArgs,
  type SendChannel,
} from './ipc-contract';

/** Describes a zod issue list as `field: problem; field: problem`. */
function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.slice(1).map(String).join('.');
      return path && !issue.message.startsWith(`${path}:`) ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

type Schema = {
  safeParse(
    args: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
};

/** One check for both message kinds: a known channel of `isChannel`, then its arguments against `schemas`. */
function checkMessage<C extends string>(
  channel: unknown,
  args: unknown,
  isChannel: (value: unknown) => value is C,
  schemas: Record<C, Schema>,
): Result<{ channel: C; args: unknown }> {
  if (!isChannel(channel)) {
    const named = typeof channel === 'string' ? channel.slice(0, 60) : typeof channel;
    return { ok: false, error: { code: 'UnknownChannel', message: `unknown channel ${named}` } };
  }
  const parsed = schemas[channel].safeParse(args);
  if (!parsed.success) {
    // Each refused field travels as data too, so the panel marks its row without reading this text.
    const refusals = parsed.error.issues.map((issue) => {
      const field = fieldPath(issue.path.slice(1));
      return { field, reason: withoutFieldPrefix(field, issue.message) };
    });
    return {
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: `${channel}: ${describeIssues(parsed.error.issues)}`,
        details: fieldDetails(refusals),
      },
    };
  }
  return { ok: true, value: { channel, args: parsed.data } };
}

/** A message that passed: its channel and its parsed arguments. */
type Checked<C extends string, A> = Result<{ channel: C; args: A }>;

export const checkInvoke = (channel: unknown, args: unknown): Checked<InvokeChannel, InvokeArgs<InvokeChannel>> =>
  checkMessage(channel, args, isInvokeChannel, INVOKE_SCHEMAS) as Checked<InvokeChannel, InvokeArgs<InvokeChannel>>;

export const checkSend = (channel: unknown, args: unknown): Checked<SendChannel, SendArgs<SendChannel>> =>
  checkMessage(channel, args, isSendChannel, SEND_SCHEMAS) as Checked<SendChannel, SendArgs<SendChannel>>;
