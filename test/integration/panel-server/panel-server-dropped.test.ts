/**
 * A panel connection a browser drops mid-way (a tab closed, a dock reloaded) is logged at debug, not as a warning a
 * streamer would read in the terminal at every reload; another socket error still is one.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../../electron/core/logger';
import { fx, useSetup } from './panel-server-fixtures';

describe('a dropped panel connection', () => {
  useSetup();

  it('is a debug line when the browser resets it', async () => {
    const client = connect(fx.server.port, '127.0.0.1');
    await new Promise<void>((resolve) => client.once('connect', resolve));
    client.write(
      'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Origin: ${fx.origin}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    // The handshake's answer, then a reset as a closed tab's network stack sends it.
    await new Promise<void>((resolve) => client.once('data', () => resolve()));
    client.resetAndDestroy();
    await expect
      .poll(() => fx.app.logs.filter((line) => line.includes('connection dropped')), { timeout: 5000 })
      .toEqual(['panel: debug: a panel or overlay connection dropped (ECONNRESET)']);
    expect(parseLine(fx.app.logs.find((line) => line.includes('dropped'))!).level).toBe('debug');
    expect(fx.app.logs.filter((line) => line.includes('upgrade socket error'))).toEqual([]);
  });
});
