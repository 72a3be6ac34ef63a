import { describe, expect, it } from 'vitest';
import { NAMES_SHOWN, nameList } from './name-list.js';

const names = (count: number) => Array.from({ length: count }, (_, i) => `t${i + 1}`);

describe('a list of names, said once', () => {
  it('names one, two and up to the cap whole', () => {
    expect(nameList([])).toBe('');
    expect(nameList(['a'])).toBe('a');
    expect(nameList(['a', 'b'])).toBe('a and b');
    expect(nameList(names(NAMES_SHOWN - 1))).toBe('t1, t2, t3 and t4');
    expect(nameList(names(NAMES_SHOWN))).toBe('t1, t2, t3, t4 and t5');
  });

  it('past the cap, shows the first ones and counts the rest', () => {
    expect(nameList(names(NAMES_SHOWN + 1))).toBe('t1, t2, t3, t4, t5 and 1 more');
    expect(nameList(names(40))).toBe('t1, t2, t3, t4, t5 and 35 more');
  });
});
