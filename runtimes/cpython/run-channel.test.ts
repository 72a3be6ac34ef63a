import { rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GuestServer } from './guest-server.js';
import { launchProcessGuest, resolveInterpreter } from './process-launcher.js';
import { RunChannelListener } from './run-channel.js';
import { fixtureTools, PEERS_PROGRAM, PEERS_PROGRAM_ANSWERS as ANSWERS } from './test/fixtures.js';

const settings = { timeoutMs: 20_000, outputLimitBytes: 100_000, limits: { memoryBytes: 512 * 1024 * 1024 } };

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
    for (let run = 0; run < 2; run++) expect(await server.run(PEERS_PROGRAM, fixtureTools(), settings)).toEqual(expected);
  });

  it('falls back to the relay when the offered socket cannot be reached', async () => {
    listener = await RunChannelListener.open();
    await rm(join(listener.dir, 'run.sock'));
    server = await GuestServer.connect(launchProcessGuest(python, undefined, listener), 30_000, 'guest');
    expect(await server.run(PEERS_PROGRAM, fixtureTools(), settings)).toEqual({ logs: ['calling'], value: [[], ANSWERS] });
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
