import { describe, expect, it } from 'vitest';
import { toolCoverage } from './tool-coverage.js';

describe('tool coverage', () => {
  it('is judged per language over every pair: a tool called only in TypeScript is still uncalled in Python', () => {
    const tools = (registered: string[], called: string[]) => ({ registered, called });
    const coverage = toolCoverage([
      { scenario: 'a', runtime: 'typescript', tools: tools(['get', 'put'], ['get']) },
      { scenario: 'b', runtime: 'typescript', tools: tools(['get', 'put'], ['put']) },
      { scenario: 'a', runtime: 'python', tools: tools(['get', 'put'], ['get']) },
      { scenario: 'a', runtime: 'pyodide', tools: tools(['get', 'put', 'zap'], []) },
      { scenario: 'c', runtime: 'python-container' },
    ]);
    expect(coverage).toEqual({
      level: 'warn',
      uncalled: [{ language: 'python', tools: ['put', 'zap'], scenarios: 1 }],
    });
  });
});
