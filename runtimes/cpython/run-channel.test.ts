import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_LIMITS } from '../seam/calls.js';
import { GuestServer } from './guest-server.js';
import { launchProcessGuest, resolveInterpreter } from './process-launcher.js';
import { RunChannelListener } from './run-channel.js';
import { PEERS_PROGRAM_ANSWERS as ANSWERS, fixtureTools, PEERS_PROGRAM } from './test/fixtures.js';

const settings = {
  timeoutMs: 20_000,
  outputLimitBytes: 100_000,
  limits: { memoryBytes: 512 * 1024 * 1024 },
  bridge: BRIDGE_LIMITS,
};

/** Sends `line` on a fresh connection; resolves with what came back before the host closed it. */
function handshake(path: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket: Socket = connect(path, () => socket.write(line));
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      answer += text;
      if (answer.endsWith('\n')) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

describe('the run channel', () => {
  let python: string;
  let listener: RunChannelListener | undefined;
  let server: GuestServer | undefined;
  beforeAll(async () => {
    python = await resolveInterpreter('python3', undefined);
  });
  afterEach(async () => {
    await server?.kill();
    await listener?.close();
    server = listener = undefined;
  });

  it('carries the run’s frames straight to the host, run after run', async () => {
    listener = await RunChannelListener.open();
    server = await GuestServer.connect(launchProcessGuest(python, undefined, listener), 30_000, 'guest');
    const expected = { logs: ['calling'], value: [[join(listener.dir, 'run.sock')], ANSWERS] };
    for (let run = 0; run < 2; run++)
      expect(await server.run(PEERS_PROGRAM, fixtureTools(), settings)).toEqual(expected);
  });

  it('falls back to the relay when the offered socket cannot be reached', async () => {
    listener = await RunChannelListener.open();
    await rm(join(listener.dir, 'run.sock'));
    server = await GuestServer.connect(launchProcessGuest(python, undefined, listener), 30_000, 'guest');
    expect(await server.run(PEERS_PROGRAM, fixtureTools(), settings)).toEqual({
      logs: ['calling'],
      value: [[], ANSWERS],
    });
  });

  it('accepts a token once, and refuses unknown and withdrawn ones', async () => {
    listener = await RunChannelListener.open();
    const attached: Socket[] = [];
    const offer = listener.offer((socket) => attached.push(socket));
    const withdrawn = listener.offer((socket) => attached.push(socket));
    withdrawn.withdraw();
    const { path, token } = offer.channel;
    expect(await handshake(path, 'f'.repeat(32) + '\n')).toBe('');
    expect(await handshake(path, `${withdrawn.channel.token}\n`)).toBe('');
    expect(await handshake(path, `${token}\nmore before the answer\n`)).toBe('');
    expect(attached).toHaveLength(0);
    const accepted = handshake(path, `${token}\n`);
    await expect(accepted).resolves.toBe('{"type":"attached"}\n');
    expect(attached).toHaveLength(1);
    expect(await handshake(path, `${token}\n`)).toBe('');
    expect(attached).toHaveLength(1);
  });
});

describe('the run channel in a deep temp folder', () => {
  // The socket is <TMPDIR>/concord-channel-<pid>-XXXXXX/run.sock; a Unix socket's path holds at most 107 bytes.
  const suffixBytes = `/concord-channel-${process.pid}-XXXXXX/run.sock`.length;
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'deep-tmpdir-'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  /** Opens a listener with TMPDIR a folder of `length` bytes under `base`, put back afterwards. */
  async function openWithTmpdirOf(
    length: number,
  ): Promise<{ opened?: RunChannelListener; error?: Error; left: string[] }> {
    const folder = join(base, 'x'.repeat(length - base.length - 1));
    await mkdir(folder, { recursive: true });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = folder;
    try {
      const opened = await RunChannelListener.open({});
      return { opened, left: readdirSync(folder) };
    } catch (error) {
      return { error: error as Error, left: readdirSync(folder) };
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  }

  it('listens at a socket path of 106 and 107 bytes', async () => {
    for (const bytes of [106, 107]) {
      const { opened, error } = await openWithTmpdirOf(bytes - suffixBytes);
      expect(error).toBeUndefined();
      expect(Buffer.byteLength(join(opened!.dir, 'run.sock'))).toBe(bytes);
      expect(existsSync(join(opened!.dir, 'run.sock'))).toBe(true);
      await opened!.close();
    }
  });

  it('refuses a socket path of 108 bytes, naming the temp folder and the fix, and leaves no folder', async () => {
    const { opened, error, left } = await openWithTmpdirOf(108 - suffixBytes);
    await opened?.close();
    expect(error?.message).toMatch(
      /108 bytes long, but a socket's path may be at most 107\. The temp folder \(.*deep-tmpdir-.*\) is too deep: set TMPDIR to a shorter folder, e\.g\. TMPDIR=\/tmp\./,
    );
    expect(left).toEqual([]);
  });
});
