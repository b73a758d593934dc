/**
 * What the Mod log tab shows ([automod](../../../../docs/automod.md#the-mod-log-tab)): its filters and how many
 * entries, kept while the streamer looks at other tabs. The log itself is the moderation state's.
 */
import { type ModLogFilter, NO_FILTER } from '../mod-log-filter';

/** Entries drawn at first and added by each "Show more". */
export const MOD_LOG_PAGE = 100;

/** The Mod log tab's filters and page size. */
export class ModLogView {
  #filter = $state.raw<ModLogFilter>(NO_FILTER);
  #limit = $state(MOD_LOG_PAGE);

  get filter(): ModLogFilter {
    return this.#filter;
  }
  /** How many matching entries are drawn. */
  get limit(): number {
    return this.#limit;
  }

  /** Changes some filters; the list starts again from its first page. */
  set(change: Partial<ModLogFilter>): void {
    this.#filter = { ...this.#filter, ...change };
    this.#limit = MOD_LOG_PAGE;
  }

  showMore(): void {
    this.#limit += MOD_LOG_PAGE;
  }

  reset(): void {
    this.#filter = NO_FILTER;
    this.#limit = MOD_LOG_PAGE;
  }
}
