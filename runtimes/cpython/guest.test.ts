import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { BRIDGE_LIMITS } from '../seam/calls.js';
import { GuestServer } from './guest-server.js';
import { launchProcessGuest } from './process-launcher.js';
import { fixtureTools } from './test/fixtures.js';

/** pyenv interpreters from the floor (3.9) up. */
function pyenvInterpreters(): string[] {
  let root: string;
  try {
    root = execFileSync('pyenv', ['root'], { encoding: 'utf8' }).trim();
  } catch {
    return [];
  }
  return ['3.9', '3.10', '3.11', '3.12', '3.13']
    .map((minor) => {
      const versions = join(root, 'versions');
      const found = execFileSync('ls', [versions], { encoding: 'utf8' })
        .split('\n')
        .filter((name) => name.startsWith(`${minor}.`))
        .sort()
        .pop();
      return found === undefined ? undefined : join(versions, found, 'bin', `python${minor}`);
    })
    .filter((path): path is string => path !== undefined && existsSync(path));
}

const interpreters = pyenvInterpreters();
const settings = {
  timeoutMs: 20_000,
  outputLimitBytes: 100_000,
  limits: { memoryBytes: 512 * 1024 * 1024 },
  bridge: BRIDGE_LIMITS,
};

// Benign programs only: these interpreters live under a private home, so the server keeps the host's user.
(await Host.with('pyenv')).describe(
  `the guest on every local CPython (${interpreters.length} found with pyenv)`,
  () => {
    const servers: GuestServer[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.kill()));
    });

    for (const interpreter of interpreters) {
      it(`runs programs on ${interpreter}`, async () => {
        const server = await GuestServer.connect(launchProcessGuest(interpreter, undefined), 30_000, interpreter);
        servers.push(server);
        const globals = await server.run('print("hi")\nreturn sorted(globals())', fixtureTools(), settings);
        expect(globals).toEqual({ logs: ['hi'], value: ['ToolCallError', '__builtins__', 'tools'] });
        const calls = await server.run(
          'import asyncio\ntry:\n    await tools.fail({})\nexcept ToolCallError as e:\n    failed = e.toolName\nreturn [failed, await tools["exotic-name"]([1])]',
          fixtureTools(),
          settings,
        );
        expect(calls).toEqual({ logs: [], value: ['fail', [1]] });
        const traced = await server.run('\n\nraise KeyError("k")', fixtureTools(), settings);
        expect(traced.error).toEqual({
          kind: 'exception',
          name: 'KeyError',
          message: 'Traceback (most recent call last):\n  File "<program>", line 3, in program\nKeyError: \'k\'',
        });
      });
    }
  },
);
