import { describe, expect, it } from 'vitest';
import { discoverInterpreters, findInterpreters } from './local.js';

describe('local interpreter discovery', () => {
  it('finds the same interpreters probing every candidate at once as one by one, each with its build', async () => {
    const serial = findInterpreters();
    expect(await discoverInterpreters()).toEqual(serial);
    for (const found of serial) expect(found.build).toMatch(new RegExp(`^${found.python.replace(/\./g, '\\.')}\\b`));
  });
});
