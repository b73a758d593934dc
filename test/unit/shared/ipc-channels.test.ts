import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  isEventChannel,
  isInvokeChannel,
  SEND_CHANNELS,
} from '../../../shared/ipc-channels';
import { INVOKE_SCHEMAS, SEND_SCHEMAS } from '../../../shared/ipc-contract';

const root = join(import.meta.dirname, '..', '..', '..');

describe('the plain channel lists', () => {
  it('name exactly the channels the contract has schemas for', () => {
    expect([...INVOKE_CHANNELS].sort()).toEqual(Object.keys(INVOKE_SCHEMAS).sort());
    expect([...SEND_CHANNELS].sort()).toEqual(Object.keys(SEND_SCHEMAS).sort());
    expect(new Set(EVENT_CHANNELS).size).toBe(EVENT_CHANNELS.length);
  });

  it('accept only their own names, and nothing inherited from Object', () => {
    expect(isInvokeChannel('chat:send')).toBe(true);
    expect(isInvokeChannel('toString')).toBe(false);
    expect(isInvokeChannel('kick:event')).toBe(false);
    expect(isEventChannel('kick:event')).toBe(true);
    expect(isEventChannel(42)).toBe(false);
  });

  it('keep the preload small: bundled as the build does, it carries no schema library', async () => {
    const result = await build({
      entryPoints: [join(root, 'electron/preload/index.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'cjs',
      external: ['electron'],
      minify: true,
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.includes('node_modules'))).toEqual([]);
    expect(inputs).not.toContain('shared/ipc-contract.ts');
    expect(result.outputFiles[0]!.contents.length).toBeLessThan(16 * 1024);
  });
});
