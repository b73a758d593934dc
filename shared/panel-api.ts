/**
 * The panel's API object, derived from the contract: `api.chat.send({...})`, `api.mod.timeout({...})`,
 * `api.on('kick:event', cb)` returning an unsubscribe. The same object is built over the Electron preload
 * bridge and over the panel WebSocket, so components never know which transport they run on.
 */
import type {
  EventChannel,
  EventPayloads,
  InvokeArgs,
  InvokeChannel,
  InvokeResult,
  SendArgs,
  SendChannel,
} from './ipc-contract';
import { INVOKE_SCHEMAS, SEND_SCHEMAS } from './ipc-contract';

/** What a transport must provide; both validate on the receiving side too. */
export interface PanelTransport {
  invoke(channel: InvokeChannel, args: unknown[]): Promise<InvokeResult<InvokeChannel>>;
  send(channel: SendChannel, args: unknown[]): void;
  on(event: EventChannel, listener: (payload: unknown) => void): () => void;
}

type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type ActionOf<C extends string> = C extends `${string}:${infer A}` ? CamelCase<A> : never;

type InvokeMethods = {
  [D in DomainOf<InvokeChannel>]: {
    [C in InvokeChannel as C extends `${D}:${string}` ? ActionOf<C> : never]: (
      ...args: InvokeArgs<C>
    ) => Promise<InvokeResult<C>>;
  };
};
type SendMethods = {
  [D in DomainOf<SendChannel>]: {
    [C in SendChannel as C extends `${D}:${string}` ? ActionOf<C> : never]: (...args: SendArgs<C>) => void;
  };
};

type Merge<A, B> = {
  [K in keyof A | keyof B]: (K extends keyof A ? A[K] : unknown) & (K extends keyof B ? B[K] : unknown);
};

export type PanelApi = Merge<InvokeMethods, SendMethods> & {
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

function camel(action: string): string {
  return action.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Builds the named API over a transport. */
export function createPanelApi(transport: PanelTransport): PanelApi {
  const api: Record<string, Record<string, unknown>> = {};
  const domain = (name: string): Record<string, unknown> => (api[name] ??= {});
  for (const channel of Object.keys(INVOKE_SCHEMAS) as InvokeChannel[]) {
    const [d, action] = channel.split(':') as [string, string];
    domain(d)[camel(action)] = (...args: unknown[]) => transport.invoke(channel, args);
  }
  for (const channel of Object.keys(SEND_SCHEMAS) as SendChannel[]) {
    const [d, action] = channel.split(':') as [string, string];
    domain(d)[camel(action)] = (...args: unknown[]) => transport.send(channel, args);
  }
  const on = (event: EventChannel, listener: (payload: unknown) => void): (() => void) => transport.on(event, listener);
  return Object.assign(api, { on }) as unknown as PanelApi;
}
