/**
 * Runtime validation of incoming contract messages, shared by the Electron IPC registrar and the panel
 * WebSocket server: an unknown channel or a bad argument becomes an ErrorValue naming the problem.
 */
import type { ErrorValue } from './errors';
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

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

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

export function checkInvoke(
  channel: unknown,
  args: unknown,
): Checked<{ channel: InvokeChannel; args: InvokeArgs<InvokeChannel> }> {
  if (!isInvokeChannel(channel)) {
    return {
      ok: false,
      error: {
        code: 'UnknownChannel',
        message: `unknown channel ${typeof channel === 'string' ? channel.slice(0, 60) : typeof channel}`,
      },
    };
  }
  const parsed = INVOKE_SCHEMAS[channel].safeParse(args);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'InvalidArgument', message: `${channel}: ${describeIssues(parsed.error.issues)}` },
    };
  }
  return { ok: true, value: { channel, args: parsed.data } };
}

export function checkSend(
  channel: unknown,
  args: unknown,
): Checked<{ channel: SendChannel; args: SendArgs<SendChannel> }> {
  if (!isSendChannel(channel)) {
    return {
      ok: false,
      error: {
        code: 'UnknownChannel',
        message: `unknown channel ${typeof channel === 'string' ? channel.slice(0, 60) : typeof channel}`,
      },
    };
  }
  const parsed = SEND_SCHEMAS[channel].safeParse(args);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'InvalidArgument', message: `${channel}: ${describeIssues(parsed.error.issues)}` },
    };
  }
  return { ok: true, value: { channel, args: parsed.data } };
}
