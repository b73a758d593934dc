/**
 * A second start whose panel port is held by a program that is not Greenroom: the start says the port is in
 * use and how to move it, as before, and never claims Greenroom is running. Each holder is a real server on
 * 127.0.0.1: a web server with its own answer, one that never answers, and one that speaks no HTTP. (The
 * first Greenroom as the holder, asked before the start opens anything and, on the desktop, after its failed
 * listen, is in launch-greenroom.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchGreenroom, LaunchError } from '../../../electron/launch/launch-greenroom';
import { isGreenroomPanel, probablyRunningText } from '../../../electron/launch/running-greenroom';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';

const holders: (Server | TcpServer)[] = [];
const sockets: Socket[] = [];
const dirs: string[] = [];

afterEach(async () => {
  sockets.splice(0).forEach((socket) => socket.destroy());
  await Promise.all(holders.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

async function hold(server: Server | TcpServer): Promise<number> {
  holders.push(server);
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

function launchOn(port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-port-holder-'));
  dirs.push(dir);
  return launchGreenroom({
    env: {
      GREENROOM_DATA_DIR: dir,
      GREENROOM_PANEL_PORT: String(port),
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_SANDBOX_ACTIVITY: 'off',
    },
    defaultDataDir: dir,
    staticDir: dir,
    openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d)),
    openExternal: () => Promise.resolve(),
    webhooks: createAppWebhookPort,
    log: () => undefined,
    panelRequired: true,
  });
}

/** Sends `head` one byte at a time, 100 ms apart, and then waits: every byte arrives before any deadline. */
function trickle(socket: Socket, head: string): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) {
      clearInterval(timer);
    } else {
      socket.write(head[sent % head.length]!);
      sent += 1;
    }
  }, 100);
  socket.on('close', () => clearInterval(timer));
  socket.on('error', () => clearInterval(timer));
}

const inUse = (port: number) =>
  new LaunchError(`the panel port ${port} is in use; set GREENROOM_PANEL_PORT to another port (0 picks a free one)`);

describe('a panel port held by another program', () => {
  it('another web server: the port is in use, and Greenroom is not said to be running', async () => {
    const port = await hold(createHttpServer((_req, res) => res.end('Welcome to some other app\n')));
    await expect(launchOn(port)).rejects.toThrow(inUse(port));
  });

  it('a web server that borrows the words of a Greenroom page further in: still not Greenroom', async () => {
    const port = await hold(createHttpServer((_req, res) => res.end('Hello. Greenroom panel: not really\n')));
    await expect(isGreenroomPanel(port)).resolves.toBe(false);
    await expect(launchOn(port)).rejects.toThrow(inUse(port));
  });

  it('a server that never answers: the probe gives up, and the port is in use', async () => {
    const port = await hold(createTcpServer(() => undefined));
    await expect(isGreenroomPanel(port, 200)).resolves.toBe(false);
    await expect(launchOn(port)).rejects.toThrow(inUse(port));
  });

  it('a server that trickles its headers one byte at a time: the probe gives up at its deadline', async () => {
    // Each byte would restart an idle timeout; the probe's one deadline does not restart.
    const port = await hold(createTcpServer((socket) => trickle(socket, 'HTTP/1.1 200 OK\r\nX-Slow: ')));
    await expect(isGreenroomPanel(port, 300)).resolves.toBe(false);
    await expect(launchOn(port)).rejects.toThrow(inUse(port));
  }, 8000);

  it('a server with endless headers: the probe stops at the header limit', async () => {
    const header = `HTTP/1.1 200 OK\r\n${'X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'.repeat(400)}\r\nGreenroom panel: x\n`;
    const port = await hold(createTcpServer((socket) => socket.end(header)));
    await expect(isGreenroomPanel(port)).resolves.toBe(false);
  });

  it('a server that borrows the exact words of the panel: the line names no page to open', async () => {
    const port = await hold(createHttpServer((_req, res) => res.end('Greenroom panel: log in here\n')));
    const error: unknown = await launchOn(port).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LaunchError);
    expect((error as Error).message).toBe(probablyRunningText(port));
    expect((error as Error).message).not.toMatch(/https?:|Greenroom is already running/);
  });

  it('a server that speaks no HTTP: the port is in use', async () => {
    const port = await hold(createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    await expect(launchOn(port)).rejects.toThrow(inUse(port));
  });
});
