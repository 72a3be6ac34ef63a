import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { CPYTHON_DEFAULTS } from '../cpython/runtime.js';
import { requireLocalImage } from './local-image.js';
import { builtModule } from './package-root.js';

/** The built module of a source file, as a script imports it. */
const built = (source: string) => JSON.stringify(builtModule(source));

/** Runs an ES module script in a process of its own: its first calls to the engine and to testcontainers are its own. */
function inProcess(script: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
    env,
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

const IMAGE = JSON.stringify(CPYTHON_DEFAULTS.image);

(await Host.with('docker')).describe('images are local, never pulled', () => {
  it('accepts a built runtime image', async () => {
    await expect(requireLocalImage(CPYTHON_DEFAULTS.image)).resolves.toBeUndefined();
  });

  it('refuses a missing one with how to build it, without asking a registry', async () => {
    await expect(requireLocalImage('concord-cpython:0.0-missing')).rejects.toThrow(
      'the image concord-cpython:0.0-missing is not on this Docker engine; build it with `npm run provision` (concord never pulls its images)',
    );
  });

  it('starts containers through the client that found the image, however many ask for it at once', () => {
    const script = `
      const { dockerEngine } = await import(${built('runtimes/seam/docker-engine.ts')});
      const { requireLocalImage } = await import(${built('runtimes/seam/local-image.ts')});
      const { containerRuntimeModule } = await import(${built('runtimes/seam/testcontainers.ts')});
      const clients = await Promise.all([1, 2, 3, 4].map(() => dockerEngine()));
      await Promise.all([1, 2, 3, 4].map(() => requireLocalImage(${IMAGE})));
      // What GenericContainer.start() asks for: it must know the image without asking the engine again.
      const { getContainerRuntimeClient } = await containerRuntimeModule();
      const starting = await getContainerRuntimeClient();
      console.log(JSON.stringify({ clients: new Set(clients).size, same: starting === clients[0] }));
    `;
    expect(inProcess(script)).toEqual({ clients: 1, same: true });
  });

  it('leaves no testcontainers lock file in the temp dir once a container started, while the process lives on', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'concord-reaper-lock-'));
    onTestFinished(() => rm(temp, { recursive: true, force: true }));
    const script = `
      const { readdirSync } = await import('node:fs');
      const { startFromLocalImage } = await import(${built('runtimes/seam/local-image.ts')});
      const { testcontainers } = await import(${built('runtimes/seam/testcontainers.ts')});
      const { GenericContainer } = await testcontainers();
      const container = new GenericContainer(${IMAGE})
        .withNetworkMode('none')
        .withCommand(['python3', '-c', 'import time; time.sleep(60)']);
      const started = await startFromLocalImage(container, ${IMAGE});
      console.log(JSON.stringify(readdirSync(process.env.TMPDIR)));
      await started.stop({ timeout: 0 });
    `;
    expect(inProcess(script, { ...process.env, TMPDIR: temp })).toEqual([]);
    expect(await readdir(temp)).toEqual([]);
  });
});
