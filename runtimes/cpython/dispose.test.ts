import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

const python3 = await Host.with('python3');

/** The runs' scratch folders of this process's CPython process runtimes. */
const scratchFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`concord-runs-${process.pid}-`));

// A runtime is disposed by whoever owns it, and sometimes twice (an app's dispose hands it to the pool's
// disposal, and a caller disposes it again): the second call must not resolve before the first is done.
python3.it('a second dispose resolves only when the first is done: the guest stopped, its scratch folder gone', {}, async () => {
  const before = new Set(scratchFolders());
  const runtime = await createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 });
  expect(await runtime.run({ program: 'return 1', bindings: fixtureTools() })).toEqual({ logs: [], value: 1 });
  const own = scratchFolders().filter((name) => !before.has(name));
  expect(own).toHaveLength(1);
  const first = runtime.dispose();
  await runtime.dispose();
  expect(scratchFolders()).not.toContain(own[0]);
  await first;
});
