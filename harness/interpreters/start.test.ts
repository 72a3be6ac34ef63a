import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { liveChildProcesses } from '../../test/child-processes.js';
import { Host } from '../../test/host-requirements.js';
import { Session } from '../session.js';

// A gate that will check Python stubs starts the interpreters' checkers as it begins (startInterpreters), so
// the first Python pair does not wait for a cold start; unless its verdict cache holds module verdicts
// already (the SDKs may all be judged), and it stops them all once, with the session.

/** This process's CPython checkers still running (their command carries the checker script). */
const checkers = () => liveChildProcesses().filter((line) => / -I -c /.test(line));

let root = '';
afterAll(() => rm(root, { recursive: true, force: true }));

(await Host.with('python3')).it(
  'a session with an empty verdict cache starts every checker at once, and stops them when it is disposed',
  { timeout: 180_000 },
  async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-start-'));
    const session = new Session({ cacheRoot: root });
    try {
      await session.startInterpreters();
      await session.interpretersReady();
      const inventory = await session.inventory();
      const locals = inventory.interpreters.filter((i) => i.kind === 'local');
      expect(locals.length).toBeGreaterThan(0);
      expect(checkers()).toHaveLength(locals.length);
      // Once a module verdict is kept, a later session starts nothing before a batch needs it.
      await inventory.verifyOn(locals[0]!, ['x = 1\n']);
      await session.cache!.settled();
    } finally {
      await session.dispose();
    }
    expect(checkers()).toEqual([]);
    await using later = new Session({ cacheRoot: root });
    await later.startInterpreters();
    await later.interpretersReady();
    expect(checkers()).toEqual([]);
  },
);
