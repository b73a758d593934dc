/** The KICKs leaderboard: lifetime, month and week, top N (1–100). */
import type { PanelApi } from '../../../../shared/panel-api';
import type { KickLeaderboard, KickLeaderboardEntry } from '../../../../shared/kick/resources';
import { LIMITS } from '../../../../shared/limits';
import { systemClock, type Clock } from '../clock';
import { LoadState, type LoadFlags } from './load-state.svelte';

export type LeaderboardPeriod = 'lifetime' | 'month' | 'week';
export const LEADERBOARD_PERIODS: readonly { id: LeaderboardPeriod; label: string }[] = [
  { id: 'lifetime', label: 'Lifetime' },
  { id: 'month', label: 'This month' },
  { id: 'week', label: 'This week' },
];

/** The board, the chosen period and N. */
export class LeaderboardState {
  #api: PanelApi;
  #board = $state.raw<KickLeaderboard | null>(null);
  #period = $state<LeaderboardPeriod>('lifetime');
  #top = $state<number>(LIMITS.leaderboardTopDefault);
  #load: LoadState;

  readonly entries: KickLeaderboardEntry[] = $derived(
    this.#board ? [...this.#board[this.#period]].sort((a, b) => a.rank - b.rank).slice(0, this.#top) : [],
  );

  constructor(api: PanelApi, clock: Clock = systemClock) {
    this.#api = api;
    this.#load = new LoadState(clock);
  }

  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get period(): LeaderboardPeriod {
    return this.#period;
  }
  get top(): number {
    return this.#top;
  }

  setPeriod(period: LeaderboardPeriod): void {
    this.#period = period;
  }

  /** Changes N (clamped to 1–100) and reloads. */
  async setTop(top: number): Promise<void> {
    const n = Math.min(LIMITS.leaderboardTopMax, Math.max(LIMITS.leaderboardTopMin, Math.round(top) || 1));
    if (n !== this.#top) {
      this.#top = n;
      await this.load();
    }
  }

  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.kicks.leaderboard({ top: this.#top }),
      (board) => {
        this.#board = board;
      },
    );
  }

  reset(): void {
    this.#board = null;
    this.#period = 'lifetime';
    this.#top = LIMITS.leaderboardTopDefault;
    this.#load.reset();
  }
}
