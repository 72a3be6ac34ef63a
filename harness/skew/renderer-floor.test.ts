import { describe, expect, it } from 'vitest';
import { renderSdk } from '../../codemode/run-code/sdk-section.js';
import type { RuntimeName, Scenario } from '../scenario/types.js';
import { rendererFloorFindings, rendererFloorOf } from './renderer-floor.js';

function scenario(name: string, runtimes: RuntimeName[], config: Record<string, unknown>): Scenario {
  return {
    name,
    description: '',
    file: `/work/scenarios/${name}.yml`,
    runtimes,
    runtimeConfig: {},
    composition: [{ id: 'tools', plugin: 'concord/tools', config, line: 4 }],
    script: [],
    expect: {},
  };
}

describe('the renderer floor against the configured floor', () => {
  it('reads the floor the composition gives the renderer, 3.9 by default', () => {
    expect(rendererFloorOf(scenario('a', ['python'], { mode: 'code', pythonFloor: '3.11' }))).toBe('3.11');
    expect(rendererFloorOf(scenario('b', ['python'], { mode: 'code' }))).toBe('3.9');
  });

  it('passes when every Python scenario renders for the configured floor', () => {
    const scenarios = [scenario('a', ['python', 'pyodide'], { mode: 'code', pythonFloor: '3.9' }), scenario('b', ['typescript'], { mode: 'code', pythonFloor: '3.13' })];
    expect(rendererFloorFindings(scenarios, '3.9')).toEqual([]);
  });

  it('fails a scenario whose renderer floor differs, naming the file, the entry and the fix', () => {
    const findings = rendererFloorFindings([scenario('newer', ['pyodide'], { mode: 'code', pythonFloor: '3.11' })], '3.9');
    expect(findings).toEqual([
      {
        check: 'renderer-floor',
        scenario: 'newer',
        severity: 'error',
        message: `newer: the renderer writes the Python SDK for CPython 3.11, but the configured floor is 3.9; set pythonFloor: '3.9' in /work/scenarios/newer.yml:4 (entry "tools")`,
      },
    ]);
  });

  it('fails a renderer that ignores the floor it is asked for', () => {
    const ignoring = (tools: Parameters<typeof renderSdk>[1]) => renderSdk('python', tools, { pythonFloor: '3.15' });
    const [finding] = rendererFloorFindings([], '3.9', ignoring);
    expect(finding).toMatchObject({ check: 'renderer-floor', severity: 'error' });
    expect(finding!.message).toMatch(/^the Python renderer is not pinned to the floor 3\.9: asked for 3\.9, it writes \S+_unicode_14_0, .* as bare methods/);
  });
});
