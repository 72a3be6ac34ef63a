import { describe, expect, it } from 'vitest';
import { pythonNameRules } from '../../codemode/sdk/identifiers/index.js';
import { exposure, windowToolName } from './windows.js';

describe('the exposure window', () => {
  const found = exposure('3.9', '17.0');

  it('has one window per Unicode version after the floor, up to Node', () => {
    expect(found.floorUnicode).toBe('13.0.0');
    expect(found.nodeTable).toBe('17.0.0');
    expect(found.windows.map((w) => [w.unicode, w.firstPython])).toEqual([
      ['14.0.0', '3.11'],
      ['15.0.0', '3.12'],
      ['15.1.0', '3.13'],
      ['16.0.0', '3.14'],
      ['17.0.0', '3.15'],
    ]);
  });

  it('counts the code points each version added', () => {
    const w14 = found.windows[0]!;
    // U+A7D1 (LATIN SMALL LETTER CLOSED INSULAR G) is one of the letters Unicode 14.0 added.
    expect(w14.xidStart).toBeGreaterThan(0);
    expect(w14.xidContinue).toBeGreaterThanOrEqual(w14.xidStart);
    for (const w of found.windows) expect(w.xidStart).toBeGreaterThan(0);
  });

  it('counts from the committed tables: these are the counts and sample letter of each window', () => {
    expect(found.windows.map((w) => [w.unicode, w.xidStart, w.xidContinue, w.sample.toString(16)])).toEqual([
      ['14.0.0', 515, 638, '870'],
      ['15.0.0', 4348, 4410, '1123f'],
      ['15.1.0', 622, 626, '2ebf0'],
      ['16.0.0', 4302, 4433, '1c89'],
      ['17.0.0', 4647, 4699, '88f'],
    ]);
    expect(exposure('3.8', '17.0').windows[0]).toMatchObject({
      unicode: '13.0.0',
      xidStart: 5598,
      xidContinue: 5645,
      sample: 0x8be,
    });
  });

  it('picks for each window a name the floor rejects and the version that added it accepts', () => {
    for (const w of found.windows) {
      const name = windowToolName(w);
      expect(pythonNameRules('3.9').isBareName(name)).toBe(false);
      expect(pythonNameRules(w.firstPython).isBareName(name)).toBe(true);
    }
  });

  it('is empty when the floor is as new as Node, and stops at Node when Node is older than the newest table', () => {
    expect(exposure('3.15', '17.0').windows).toEqual([]);
    expect(exposure('3.9', '15.1').windows.map((w) => w.unicode)).toEqual(['14.0.0', '15.0.0', '15.1.0']);
  });
});
