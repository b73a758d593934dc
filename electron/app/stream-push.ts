/**
 * The channel, read once in main when it changes. Kick's live-status and metadata events carry only part
 * of what the stream panel shows (no viewers, no tags), so the channel has to be read again; before, every
 * open panel (the window, each OBS dock) asked Kick on its own for every such event (issue 10). Here main
 * reads it once and pushes the result to all of them. Events that arrive while a read is under way cost
 * one more read after it, not one each; a failed read is logged and pushes nothing (the panels keep what
 * they show, and the next change reads again).
 */
import type { ChannelView } from '../../shared/views';

export interface StreamPushOptions {
  /** Reads the channel (without its stream key). */
  read: () => Promise<ChannelView | null>;
  push: (channel: ChannelView | null) => void;
  log: (line: string) => void;
}

export interface StreamPush {
  /** The channel changed: read it and push it (coalesced with a read already under way). */
  changed(): void;
  /** Resolves once no read is under way (tests, shutdown). */
  settled(): Promise<void>;
  stop(): void;
}

export function createStreamPush({ read, push, log }: StreamPushOptions): StreamPush {
  let reading: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const readAndPush = async (): Promise<void> => {
    do {
      again = false;
      try {
        const channel = await read();
        if (!stopped) {
          push(channel);
        }
      } catch (error) {
        log(
          `stream: could not read the channel after a change: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    } while (again && !stopped);
    reading = null;
  };

  return {
    changed() {
      if (stopped) {
        return;
      }
      if (reading) {
        again = true;
        return;
      }
      reading = readAndPush();
    },
    settled: () => reading ?? Promise.resolve(),
    stop() {
      stopped = true;
    },
  };
}
