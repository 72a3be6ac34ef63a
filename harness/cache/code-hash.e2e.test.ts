import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installedApart } from '../../test/packed.js';
import { writeStockProject } from '../project/stock-project.js';
import { concordIn } from '../test/concord-cli.js';

// The verdict cache of the gate as a project installs it (the packed tarball, beside the project): a verdict is kept
// for the code that judged it, so an installed concord whose checks changed, at the same version, judges again.
let root = '';
let install = { bin: '', dir: '' };
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-code-hash-'));
  await writeStockProject(root, 'stock', { javascript: true, runtimes: '[typescript, python]' });
  install = await installedApart('code-hash');
}, 120_000);
afterAll(() => Promise.all([root, install.dir].map((dir) => rm(dir, { recursive: true, force: true }))));

const cacheLine = (stdout: string) => /^verdict cache: (\d+) reused, (\d+) computed/m.exec(stdout);

it('reuses verdicts on the next gate, and none once the installed checks changed at the same version', {
  timeout: 300_000,
}, async () => {
  const gate = concordIn(
    () => root,
    240_000,
    () => install.bin,
  );
  const first = gate({}, 'gate', '--update=new');
  expect(first.status, first.stdout + first.stderr).toBe(0);
  expect(Number(cacheLine(first.stdout)?.[2])).toBeGreaterThan(0);

  const again = gate({ CI: 'true' }, 'gate');
  expect(again.status, again.stdout + again.stderr).toBe(0);
  expect(cacheLine(again.stdout)?.slice(1, 3)).toEqual([expect.not.stringMatching(/^0$/), '0']);

  // The same version string, other check code: a comment is enough to be another build.
  await appendFile(
    join(install.dir, 'node_modules', 'concord', 'dist', 'harness', 'checks', 'stub-validity.js'),
    '\n// another build\n',
  );
  const changed = gate({ CI: 'true' }, 'gate');
  expect(changed.status, changed.stdout + changed.stderr).toBe(0);
  expect(cacheLine(changed.stdout)?.[1]).toBe('0');
});
