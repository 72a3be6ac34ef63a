import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';
import type { Packed } from './pack.js';

/** The tarball the test run's global setup packed once (vitest.global-setup.ts): read it, never write beside it. */
export function packed(): Packed {
  return inject('packed');
}

/**
 * A project at `dir` that has concord installed from its packed tarball, beside every package this checkout
 * has installed except `missing`: the install of a user who did not add those optional peers, made without
 * a registry. concord's files are real files under `dir/node_modules/concord`, so what they import resolves
 * from there and never reaches this checkout's node_modules. Returns the path of the installed CLI.
 */
export async function installedWithout(dir: string, missing: readonly string[]): Promise<string> {
  const installed = join(dir, 'node_modules', 'concord');
  await mkdir(installed, { recursive: true });
  const { tarball } = packed();
  const unpack = spawnSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
  if (unpack.status !== 0) throw new Error(`could not unpack ${tarball}: ${unpack.stderr}`);
  const from = join(packageRoot(), 'node_modules');
  for (const entry of await readdir(from)) {
    if (entry === '.bin' || entry === 'concord' || entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      await mkdir(join(dir, 'node_modules', entry), { recursive: true });
      for (const scoped of await readdir(join(from, entry))) {
        if (!missing.includes(`${entry}/${scoped}`))
          await symlink(join(from, entry, scoped), join(dir, 'node_modules', entry, scoped));
      }
    } else if (!missing.includes(entry)) await symlink(join(from, entry), join(dir, 'node_modules', entry));
  }
  return join(installed, 'bin', 'concord.mjs');
}

/**
 * concord from its packed tarball in a fresh folder of its own, beside the project a test runs it in rather than
 * inside it (every file below that project is then one the test or the gate wrote): the installed CLI, and the
 * folder for the test to remove.
 */
export async function installedApart(prefix: string): Promise<{ bin: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), `concord-${prefix}-install-`));
  return { dir, bin: await installedWithout(dir, []) };
}
