import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedWithout } from '../../test/packed.js';
import { installCommand } from './optional-package.js';

// How concord loads testcontainers, seen from a project that installed concord from its packed tarball: the
// engine lookup loads only testcontainers' container-runtime module, a release without that module is
// loaded whole, and no testcontainers at all is one line naming the install command.

let dir = '';

/**
 * Runs `body` (ESM, with `seam` the installed concord's testcontainers.js and `cache` node's module cache) in a process
 * of its own in `dir`.
 */
function inInstall(body: string): { status: number | null; stdout: string; stderr: string } {
  const script = `import { createRequire } from 'node:module';
const seam = await import(${JSON.stringify(join(dir, 'node_modules', 'concord', 'dist', 'runtimes', 'seam', 'testcontainers.js'))});
const cache = createRequire(import.meta.url).cache;
${body}`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-testcontainers-'));
  await installedWithout(dir, []);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('testcontainers, an optional peer', () => {
  it('is loaded only as far as its container-runtime module to reach the engine', () => {
    const run = inInstall(`const { getContainerRuntimeClient } = await seam.containerRuntimeModule();
const loaded = (tail) => Object.keys(cache).some((file) => file.endsWith(tail));
console.log(JSON.stringify({ fn: typeof getContainerRuntimeClient, runtime: loaded('/testcontainers/build/container-runtime/index.js'), whole: loaded('/testcontainers/build/index.js') }));`);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ fn: 'function', runtime: true, whole: false });
  });

  it('is loaded whole when its release has no container-runtime module', async () => {
    // A release laid out otherwise: one entry point, the function concord calls among its exports.
    await rm(join(dir, 'node_modules', 'testcontainers'), { recursive: true, force: true });
    await mkdir(join(dir, 'node_modules', 'testcontainers'));
    await writeFile(
      join(dir, 'node_modules', 'testcontainers', 'package.json'),
      JSON.stringify({ name: 'testcontainers', version: '99.0.0', main: 'main.js' }),
    );
    await writeFile(
      join(dir, 'node_modules', 'testcontainers', 'main.js'),
      `exports.getContainerRuntimeClient = () => 'the whole package';\n`,
    );
    const run = inInstall(`const { getContainerRuntimeClient } = await seam.containerRuntimeModule();
console.log(getContainerRuntimeClient());`);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('the whole package\n');
  });

  it('is named with its install command when it is not installed', async () => {
    await rm(join(dir, 'node_modules', 'testcontainers'), { recursive: true, force: true });
    const run = inInstall(
      `try { await seam.containerRuntimeModule(); } catch (error) { console.log(error.name + ': ' + error.message); }`,
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      `MissingPackageError: the CPython container runtime needs testcontainers, which is not installed: run \`${installCommand('testcontainers')}\`\n`,
    );
  });
});
