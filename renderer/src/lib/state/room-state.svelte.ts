/**
 * The chat room's modes, pinned message and cleared-chat lines as main last said them
 * ([Chat tools](../../../../docs/chat-tools.md#the-rooms-modes-and-pinned-message)): read once when the panel
 * starts or reconnects (`chat:room-state`), then main's pushes (`chat:room-changed`). Main expires pins and
 * forgets what is stale, so this keeps no clock of its own.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import { EMPTY_ROOM_STATE, type RoomStateView } from '../../../../shared/room-state';

export class RoomState {
  #api: PanelApi;
  #view = $state.raw<RoomStateView>(EMPTY_ROOM_STATE);

  constructor(api: PanelApi) {
    this.#api = api;
  }

  /** What main last said; empty until then. */
  get view(): RoomStateView {
    return this.#view;
  }

  /** Reads the room's state; a main too old to know it (or a failed read) leaves what is shown. */
  async load(): Promise<void> {
    const result = await this.#api.chat.roomState();
    if (result.ok) {
      this.#view = result.value;
    }
  }

  /** Main's push. */
  apply(view: RoomStateView): void {
    this.#view = view;
  }

  reset(): void {
    this.#view = EMPTY_ROOM_STATE;
  }
}
