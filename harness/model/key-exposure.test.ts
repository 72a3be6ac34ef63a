import { describe, expect, it } from 'vitest';
import { ALLOW_KEY_EXPOSURE, keyExposure } from './key-exposure.js';

describe('keyExposure', () => {
  const sees = () => true;
  const hidden = () => false;

  it('refuses python runs that could read the account environ while concord holds a key, naming the way out', () => {
    const why = keyExposure(['typescript', 'python'], true, sees);
    expect(why).toContain('CONCORD_MODEL_API_KEY');
    expect(why).toContain(`/proc/${process.pid}/environ`);
    expect(why).toContain(ALLOW_KEY_EXPOSURE);
  });

  it('lets them run when the runs have a /proc of their own, when no key is held, or when no python run is selected', () => {
    expect(keyExposure(['python'], true, hidden)).toBeUndefined();
    expect(keyExposure(['python'], false, sees)).toBeUndefined();
    expect(keyExposure(['typescript', 'pyodide', 'python-container'], true, sees)).toBeUndefined();
  });
});
