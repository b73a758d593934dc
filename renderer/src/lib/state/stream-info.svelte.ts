/**
 * Stream info: title, category (autocomplete over v2 categories, the search debounced on the injected
 * clock), tags (≤ 10, ≤ 25 characters each), live status and viewer count. Saving sends only what changed.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import type { KickCategory } from '../../../../shared/kick/resources';
import type { ChannelView } from '../../../../shared/views';
import { countCodePoints, LIMITS } from '../../../../shared/limits';
import { systemClock, type Clock } from '../clock';
import type { ShownError } from '../error-text';
import { HeldError, type GoneCause } from './held-error.svelte';
import { LoadState, type LoadFlags } from './load-state.svelte';

/** The contract's cap on a stream title. */
export const STREAM_TITLE_MAX = 200;
export const SEARCH_DEBOUNCE_MS = 300;

export interface CategoryChoice {
  id: number;
  name: string;
}

/** Null when a new tag may be added, else the reason. */
export function validateTag(tag: string, existing: readonly string[]): string | null {
  const t = tag.trim();
  if (!t) {
    return 'Tag: type a word first.';
  }
  if (countCodePoints(t) > LIMITS.customTagLengthMax) {
    return `Tag: at most ${LIMITS.customTagLengthMax} characters.`;
  }
  if (existing.some((e) => e.toLowerCase() === t.toLowerCase())) {
    return `Tag: "${t}" is already there.`;
  }
  if (existing.length >= LIMITS.customTagsMax) {
    return `Tags: at most ${LIMITS.customTagsMax}.`;
  }
  return null;
}

/** The channel's info and the edit drafts. */
export class StreamInfoState {
  #api: PanelApi;
  #clock: Clock;
  #info = $state.raw<ChannelView | null>(null);
  #load: LoadState;
  #saving = $state(false);
  #saveError = new HeldError();
  #saved = $state(false);
  #results = $state.raw<KickCategory[]>([]);
  #searching = $state(false);
  #searchError = new HeldError();
  #query = $state('');
  #cancelSearch: (() => void) | null = null;
  #searchSeq = 0;

  /** Drafts, bound to the form. */
  title = $state('');
  category = $state.raw<CategoryChoice | null>(null);
  tags = $state.raw<string[]>([]);

  readonly titleError = $derived.by(() => {
    const n = countCodePoints(this.title.trim());
    if (n === 0) {
      return 'Title: required.';
    }
    return n > STREAM_TITLE_MAX ? `Title: at most ${STREAM_TITLE_MAX} characters (now ${n}).` : null;
  });
  readonly changes = $derived.by(() => {
    const info = this.#info;
    const out: { title?: string; categoryId?: number; tags?: string[] } = {};
    if (!info) {
      return out;
    }
    if (this.title.trim() !== info.stream_title) {
      out.title = this.title.trim();
    }
    if (this.category && this.category.id !== info.category.id) {
      out.categoryId = this.category.id;
    }
    if (this.tags.join('\n') !== info.stream.custom_tags.join('\n')) {
      out.tags = this.tags;
    }
    return out;
  });
  readonly dirty = $derived(Object.keys(this.changes).length > 0);

  constructor(api: PanelApi, clock: Clock = systemClock) {
    this.#api = api;
    this.#clock = clock;
    this.#load = new LoadState(clock);
  }

  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get info(): ChannelView | null {
    return this.#info;
  }
  get saving(): boolean {
    return this.#saving;
  }
  get saveError(): ShownError | null {
    return this.#saveError.shown;
  }
  get saved(): boolean {
    return this.#saved;
  }
  get isLive(): boolean {
    return this.#info?.stream.is_live ?? false;
  }
  get viewers(): number {
    return this.#info?.stream.viewer_count ?? 0;
  }
  get query(): string {
    return this.#query;
  }
  get results(): readonly KickCategory[] {
    return this.#results;
  }
  get searching(): boolean {
    return this.#searching;
  }
  get searchError(): ShownError | null {
    return this.#searchError.shown;
  }

  /** A save or search error whose cause `cause` ended goes (held-error.svelte.ts). */
  clearIfEnded(cause: GoneCause): void {
    this.#saveError.clearIfEnded(cause);
    this.#searchError.clearIfEnded(cause);
  }

  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.stream.info(),
      (info) => this.#apply(info, !this.dirty),
    );
  }

  /** The channel as main pushed it after a change: live status and viewers, without touching drafts. */
  applyPushed(info: ChannelView | null): void {
    this.#apply(info, !this.dirty);
  }

  /** Types into the category box: searches after a pause in typing. */
  setQuery(query: string): void {
    this.#query = query;
    this.#cancelSearch?.();
    this.#cancelSearch = null;
    const q = query.trim();
    if (q.length === 0) {
      this.#results = [];
      this.#searching = false;
      return;
    }
    this.#searching = true;
    this.#cancelSearch = this.#clock.setTimeout(() => void this.#search(q.slice(0, 100)), SEARCH_DEBOUNCE_MS);
  }

  pickCategory(category: CategoryChoice): void {
    this.category = { id: category.id, name: category.name };
    this.#query = '';
    this.#results = [];
    this.#searching = false;
    this.#saved = false;
  }

  /** Adds a tag; returns the reason when it cannot. */
  addTag(tag: string): string | null {
    const problem = validateTag(tag, this.tags);
    if (!problem) {
      this.tags = [...this.tags, tag.trim()];
      this.#saved = false;
    }
    return problem;
  }

  removeTag(tag: string): void {
    this.tags = this.tags.filter((t) => t !== tag);
    this.#saved = false;
  }

  /** Puts the drafts back to what Kick has. */
  revert(): void {
    this.#apply(this.#info, true);
  }

  async save(): Promise<void> {
    if (!this.dirty || this.titleError || this.#saving) {
      return;
    }
    this.#saving = true;
    this.#saveError.clear();
    this.#saved = false;
    const result = await this.#api.stream.update(this.changes);
    this.#saving = false;
    if (!result.ok) {
      this.#saveError.fail(result.error);
      return;
    }
    this.#saved = true;
    if (result.value) {
      this.#apply(result.value, true);
    } else {
      await this.load();
    }
  }

  reset(): void {
    this.#cancelSearch?.();
    this.#cancelSearch = null;
    this.#info = null;
    this.#load.reset();
    this.#saving = false;
    this.#saveError.clear();
    this.#saved = false;
    this.#results = [];
    this.#searching = false;
    this.#searchError.clear();
    this.#query = '';
    this.title = '';
    this.category = null;
    this.tags = [];
  }

  async #search(query: string): Promise<void> {
    const seq = ++this.#searchSeq;
    const result = await this.#api.stream.searchCategories({ query });
    if (seq !== this.#searchSeq) {
      return;
    }
    this.#searching = false;
    if (!result.ok) {
      this.#searchError.fail(result.error);
      this.#results = [];
      return;
    }
    this.#searchError.clear();
    this.#results = result.value;
  }

  #apply(info: ChannelView | null, resetDrafts: boolean): void {
    this.#info = info;
    if (resetDrafts) {
      this.title = info?.stream_title ?? '';
      this.category = info ? { id: info.category.id, name: info.category.name } : null;
      this.tags = info ? [...info.stream.custom_tags] : [];
    }
  }
}
