import { describe, expect, it } from 'vitest';
import { parseCpythonConfig } from './config.js';

describe('cpython plugin config', () => {
  it('accepts a complete config', () => {
    const raw = {
      isolation: 'container',
      image: 'concord-cpython:3.11',
      python: 'python3',
      timeoutMs: 5000,
      memoryMb: 256,
      outputLimitBytes: 1000,
      fallback: 'error',
      shared: true,
    };
    expect(parseCpythonConfig(raw)).toEqual(raw);
  });

  it('names the field and what is allowed when a config is wrong', () => {
    expect(() => parseCpythonConfig({})).toThrow(/isolation is required/);
    expect(() => parseCpythonConfig({ isolation: 'vm' })).toThrow(
      /isolation must be one of process, container, got "vm"/,
    );
    expect(() => parseCpythonConfig({ isolation: 'process', memoryMb: 1.5 })).toThrow(
      /memoryMb must be an integer from 32/,
    );
    expect(() => parseCpythonConfig({ isolation: 'process', fallback: 'none' })).toThrow(
      /fallback must be one of process, error/,
    );
    expect(() => parseCpythonConfig({ isolation: 'process', pyhton: 'x' })).toThrow(/unknown field "pyhton"/);
    expect(() => parseCpythonConfig({ isolation: 'process', image: '' })).toThrow(/image must be a non-empty string/);
    expect(() => parseCpythonConfig('process')).toThrow(/must be a mapping/);
  });
});
