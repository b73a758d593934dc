/** The Overlays tab's draft of the queue settings, reactive as the tab's `$state` draft is. */
import type { AlertQueueSettings } from '../../../../shared/overlays';

export function draftQueueSettings(): AlertQueueSettings {
  const settings = $state({ maxAgeSec: 120, chatCommands: true });
  return settings;
}
