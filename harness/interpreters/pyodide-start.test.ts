import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { Host } from '../../test/host-requirements.js';

// The Pyodide worker runs as nobody when concord runs as root. An install nobody can read (inside a private
// folder) is copied to the temp dir for it; when the temp dir is private too, no worker can be launched.
// Starting the interpreters early must not turn that into a crash: start() resolves, and the first batch
// says why and how to fix it. A copy of concord's build in a private folder stands for such an install.
const script = (pyodideModule: string) => `
const { PyodideInterpreter } = await import(${JSON.stringify(pyodideModule)});
const interpreter = new PyodideInterpreter('3.13');
await interpreter.start();
console.log('started');
try {
  await interpreter.compile(['x = 1\\n']);
  console.log('compiled');
} catch (error) {
  console.log('batch: ' + error.message);
}
await interpreter.dispose();
`;

(await Host.with('root')).it(
  'a Pyodide interpreter no worker can be launched for starts without a crash, and its first batch says why',
  { timeout: 120_000 },
  async () => {
    const work = await mkdtemp(join(tmpdir(), 'concord-pyodide-start-'));
    onTestFinished(() => rm(work, { recursive: true, force: true }));
    const temp = join(work, 'tmp');
    await mkdir(temp);
    const pyodideModule = await privateInstall(join(work, 'concord'));
    const child = runWithTemp(script(pyodideModule), temp);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toContain(
      'started\nbatch: concord: the Pyodide worker runs as the unprivileged user nobody and cannot read its files',
    );
    expect(child.stdout).toContain(
      `Make the temp dir (${temp}) reachable by every user, or set TMPDIR to one that is.`,
    );
  },
);

// The same private install with a temp dir every user can reach: the worker runs from copies there, and a host that
// lives on after its interpreter is disposed (a test worker, a long-lived API user) keeps none of them.
const lifecycle = (pyodideModule: string, temp: string) => `
const { readdirSync } = await import('node:fs');
const staged = () => readdirSync(${JSON.stringify(temp)}).filter((name) => name.startsWith('concord-pyodide-')).length;
const { PyodideInterpreter } = await import(${JSON.stringify(pyodideModule)});
const interpreter = new PyodideInterpreter('3.13');
await interpreter.start();
const report = await interpreter.compile(['x = 1\\n']);
console.log('compiled ' + JSON.stringify(report.results));
console.log('while running: ' + staged());
await interpreter.dispose();
console.log('after dispose: ' + staged());
`;

(await Host.with('root')).it(
  'a Pyodide worker run from copies leaves none once its interpreter is disposed, with the host still running',
  { timeout: 120_000 },
  async () => {
    const work = await mkdtemp(join(tmpdir(), 'concord-pyodide-copies-'));
    onTestFinished(() => rm(work, { recursive: true, force: true }));
    await chmod(work, 0o755);
    await mkdir(join(work, 'private'), { mode: 0o700 });
    const temp = join(work, 'tmp');
    await mkdir(temp);
    await chmod(temp, 0o755);
    const child = runWithTemp(lifecycle(await privateInstall(join(work, 'private', 'concord')), temp), temp);
    expect(child.stderr).toBe('');
    expect(child.stdout).toMatch(/^compiled \[\{"ok":true.*\nwhile running: 1\nafter dispose: 0\n$/);
  },
);

/**
 * A copy of concord's build at `install`, readable only through the private folder it is in: hard links (the build's
 * files at no cost), its package.json, and links to its node_modules and to the guest's Python sources (which the
 * host reads and sends to the worker). The Pyodide interpreter's module in it.
 */
async function privateInstall(install: string): Promise<string> {
  await mkdir(install);
  const linked = spawnSync('cp', ['-al', join(packageRoot(), 'dist'), join(install, 'dist')], { encoding: 'utf8' });
  expect(linked.status, linked.stderr).toBe(0);
  await copyFile(join(packageRoot(), 'package.json'), join(install, 'package.json'));
  await symlink(join(packageRoot(), 'node_modules'), join(install, 'node_modules'));
  await symlink(join(packageRoot(), 'runtimes'), join(install, 'runtimes'));
  return join(install, 'dist', 'harness', 'interpreters', 'pyodide.js');
}

/** Runs a module script in a process of its own, with `temp` as its temp dir. */
function runWithTemp(source: string, temp: string) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', source], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: temp },
    timeout: 90_000,
  });
}
