import { expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { CPYTHON_DEFAULTS } from '../cpython/runtime.js';
import { requireLocalImage } from './local-image.js';

(await Host.with('docker')).describe('images are local, never pulled', () => {
  it('accepts a built runtime image', async () => {
    await expect(requireLocalImage(CPYTHON_DEFAULTS.image)).resolves.toBeUndefined();
  });

  it('refuses a missing one with how to build it, without asking a registry', async () => {
    await expect(requireLocalImage('concord-cpython:0.0-missing')).rejects.toThrow(
      'the image concord-cpython:0.0-missing is not on this Docker engine; build it with `npm run provision` (concord never pulls its images)',
    );
  });
});
