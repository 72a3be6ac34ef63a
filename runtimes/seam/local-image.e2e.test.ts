import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { CPYTHON_DEFAULTS } from '../cpython/runtime.js';
import { requireLocalImage } from './local-image.js';
import { builtModule } from './package-root.js';

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
    // A process of its own: its first calls to the engine are the ones that race.
    const script = `
      const { dockerEngine } = await import(${JSON.stringify(builtModule('runtimes/seam/docker-engine.ts'))});
      const { requireLocalImage } = await import(${JSON.stringify(builtModule('runtimes/seam/local-image.ts'))});
      const { containerRuntimeModule } = await import(${JSON.stringify(builtModule('runtimes/seam/testcontainers.ts'))});
      const image = ${JSON.stringify(CPYTHON_DEFAULTS.image)};
      const { getContainerRuntimeClient } = await containerRuntimeModule();
      // Another copy of the module asks too, again and again while these wait: testcontainers keeps the client
      // that finished last, which is one of its.
      let settled = false;
      const asking = Promise.all([1, 2, 3, 4].map(() => dockerEngine())).finally(() => (settled = true));
      const others = [];
      while (!settled) {
        others.push(getContainerRuntimeClient());
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const clients = await asking;
      await Promise.all(others);
      await Promise.all([1, 2, 3, 4].map(() => requireLocalImage(image)));
      // What GenericContainer.start() asks for: it must know the image without asking the engine again.
      const starting = await getContainerRuntimeClient();
      console.log(JSON.stringify({ clients: new Set(clients).size, same: starting === (await dockerEngine()) }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ clients: 1, same: true });
  });
});
