import { describe, expect, it } from 'vitest';
import { createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

describe('cpython container isolation without its image', () => {
  const image = 'concord-cpython:no-such-version';

  it('fails with one plain message when the fallback is error', async () => {
    await expect(createCpythonRuntime({ isolation: 'container', image, fallback: 'error' })).rejects.toThrow(
      /npm run provision/,
    );
  });

  it('falls back to a local process and says why', async () => {
    const runtime = await createCpythonRuntime({ isolation: 'container', image, fallback: 'process' });
    try {
      expect(runtime.isolation).toBe('process');
      expect(runtime.notice).toMatch(/not a container: .*npm run provision/);
      expect((await runtime.run({ program: 'return 2 + 2', bindings: fixtureTools() })).value).toBe(4);
    } finally {
      await runtime.dispose();
    }
  });
});
