import { describe, expect, it } from 'vitest';
import { containerUnavailable } from '../cpython/container-launcher.js';
import { CPYTHON_DEFAULTS } from '../cpython/runtime.js';
import { requireLocalImage } from './local-image.js';

const reason = await containerUnavailable(CPYTHON_DEFAULTS.image);
if (reason) console.warn(`local-image tests skipped: ${reason}`);

describe.skipIf(reason !== undefined)('images are local, never pulled', () => {
  it('accepts a built runtime image', async () => {
    await expect(requireLocalImage(CPYTHON_DEFAULTS.image)).resolves.toBeUndefined();
  });

  it('refuses a missing one with how to build it, without asking a registry', async () => {
    await expect(requireLocalImage('concord-cpython:0.0-missing')).rejects.toThrow(
      'the image concord-cpython:0.0-missing is not on this Docker engine; build it with `npm run provision` (concord never pulls its images)',
    );
  });
});
