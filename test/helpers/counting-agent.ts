import { Agent, type Dispatcher } from 'undici';

/** An undici Agent that counts the requests it dispatches: proof that a validation error sent nothing. */
export class CountingAgent extends Agent {
  requests = 0;

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.requests++;
    return super.dispatch(options, handler);
  }
}
