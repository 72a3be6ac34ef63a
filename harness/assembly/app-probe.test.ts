import { afterAll, describe, expect, it } from 'vitest';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';
import { committedScenario } from '../skew/test/apps.js';
import { AppProbe } from './app-probe.js';
import { probeTarget } from './probe-targets.js';

afterAll(() => disposeSharedRuntimes());

const tool = (name: string) => ({
  name,
  description: `The ${name} probe.`,
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
});

describe('a probe of the project app', () => {
  it('registers tools through ctx.tools, reads them back from the first request, and removes them again', {
    timeout: 120_000,
  }, async () => {
    const target = probeTarget(await committedScenario('exotic-names'), 'typescript');
    expect(target?.runtime.name).toBe('typescript');
    const probe = await AppProbe.boot(target!.scenario, target!.runtime);
    try {
      const view = await probe.view([tool('probe_only'), tool('class')]);
      expect(view.refused).toEqual([{ name: 'class', reason: 'tools: a tool named "class" is already registered' }]);
      expect(view.fence).toBe('typescript');
      expect(view.sdk).toContain('probe_only(args: ProbeOnlyArgs)');
      expect(view.section).toBe('```typescript\n' + view.sdk + '```');
      expect(view.runCode?.name).toBe('run_code');
      expect(view.request.messages).toEqual([{ role: 'user', content: 'Describe the tools you can call.' }]);
      const after = await probe.view([]);
      expect(after.sdk).not.toContain('probe_only');
      expect(after.sdk).toContain('"weather-alerts"(args');
    } finally {
      await probe.dispose();
    }
  });

  it('picks the cheapest runtime of a language the scenario declares and that runs here', async () => {
    const scenario = await committedScenario('exotic-names');
    expect(probeTarget(scenario, 'python')?.runtime.name).toBe('python');
    expect(probeTarget(scenario, 'python', new Set(['python']))?.runtime.name).toBe('pyodide');
    expect(probeTarget({ ...scenario, runtimes: ['typescript'] }, 'python')).toBeUndefined();
  });
});
