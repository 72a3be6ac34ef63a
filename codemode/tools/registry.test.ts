import { Context } from 'cordis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { RUN_CODE_TEXT } from '../run-code/descriptions.js';
import { ToolRegistry } from './registry.js';
import { scriptedRuntime } from './test/scripted-runtime.js';
import type { RegisteredTool } from './types.js';

function tool(
  name: string,
  execute: (args: JsonValue) => Promise<JsonValue> = async (args) => ({ echo: args }),
): RegisteredTool {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    execute,
  };
}

let root: Context;
let problems: string[];

beforeEach(async () => {
  root = new Context();
  problems = [];
  root.on('internal/error', (error: unknown) => void problems.push(String(error)), { global: true });
  root.on('internal/warning', (warning: unknown) => void problems.push(String(warning)), { global: true });
  await root.start();
});

afterEach(async () => {
  await root.stop();
});

async function mountTools(config: unknown): Promise<ToolRegistry> {
  root.plugin(ToolRegistry, config as never);
  await root.events.flush();
  return root.tools;
}

describe('the tools service', () => {
  it('is provided by the plugin with its config', async () => {
    const tools = await mountTools({ mode: 'both', pythonFloor: '3.11' });
    expect(tools.mode).toBe('both');
    expect(tools.config.pythonFloor).toBe('3.11');
    expect(problems).toEqual([]);
  });

  it('refuses a bad config with every problem named, and is not provided', async () => {
    root.plugin(ToolRegistry, { mode: 'script', pythonFloor: 3.9, extra: 1 } as never);
    await root.events.flush();
    expect(root.get('tools')).toBeUndefined();
    expect(problems.join('\n')).toContain('unknown key "extra"');
    expect(problems.join('\n')).toContain('mode must be one of native, code, both, got "script"');
    expect(problems.join('\n')).toContain(
      'pythonFloor must be one of 3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15, got 3.9',
    );
  });

  it('requires a mode', async () => {
    root.plugin(ToolRegistry, {} as never);
    await root.events.flush();
    expect(root.get('tools')).toBeUndefined();
    expect(problems.join('\n')).toContain('mode is required');
  });
});

describe('registering tools', () => {
  it('lists tools sorted by name in code-unit order, whatever the order of registration', async () => {
    const tools = await mountTools({ mode: 'native' });
    for (const name of ['é', 'b', 'B', 'a_1', 'a']) tools.register(tool(name));
    expect(tools.list().map((t) => t.name)).toEqual(['B', 'a', 'a_1', 'b', 'é']);
  });

  it('fails loudly on a duplicate name and keeps the first tool', async () => {
    const tools = await mountTools({ mode: 'native' });
    const first = tool('lookup');
    tools.register(first);
    expect(() => tools.register(tool('lookup'))).toThrow('tools: a tool named "lookup" is already registered');
    expect(tools.list()).toEqual([first]);
  });

  it('refuses malformed tools and the reserved name run_code', async () => {
    const tools = await mountTools({ mode: 'code' });
    expect(() => tools.register(tool('run_code'))).toThrow(/reserved/);
    expect(() => tools.register({ ...tool('x'), name: '' })).toThrow(/non-empty string name/);
    expect(() => tools.register({ ...tool('x'), description: undefined as never })).toThrow(/string description/);
    expect(() => tools.register({ ...tool('x'), execute: undefined as never })).toThrow(/execute\(args\) function/);
    expect(tools.list()).toEqual([]);
  });

  it('removes a tool through the returned disposer', async () => {
    const tools = await mountTools({ mode: 'native' });
    const dispose = tools.register(tool('a'));
    dispose();
    expect(tools.list()).toEqual([]);
    tools.register(tool('a'));
    expect(tools.list().map((t) => t.name)).toEqual(['a']);
  });

  it("removes a plugin's tools when that plugin is disposed, and only those", async () => {
    const tools = await mountTools({ mode: 'native' });
    const pluginA = root.plugin({
      name: 'a',
      inject: ['tools'],
      apply: (ctx: Context) => void ctx.tools.register(tool('from_a')),
    });
    root.plugin({ name: 'b', inject: ['tools'], apply: (ctx: Context) => void ctx.tools.register(tool('from_b')) });
    await root.events.flush();
    expect(tools.list().map((t) => t.name)).toEqual(['from_a', 'from_b']);
    pluginA.dispose();
    expect(tools.list().map((t) => t.name)).toEqual(['from_b']);
    expect(problems).toEqual([]);
  });
});

describe('language dispatch', () => {
  it('lists schemas in TypeScript when no code runtime is mounted', async () => {
    const tools = await mountTools({ mode: 'code' });
    expect(tools.language).toBe('typescript');
    expect(tools.wireTools()[0]?.description).toBe(RUN_CODE_TEXT.typescript.tool);
  });

  it("follows the mounted runtime's language", async () => {
    const tools = await mountTools({ mode: 'code' });
    tools.register(tool('lookup'));
    root.set('codeRuntime', scriptedRuntime('python'));
    expect(tools.language).toBe('python');
    const [runCode] = tools.wireTools();
    expect(runCode?.description).toBe(RUN_CODE_TEXT.python.tool);
    expect(tools.sdkSection()).toMatch(/^```python\n[\s\S]*\n```$/);
  });

  it('fails loudly for a language it has no SDK or run_code text for, naming the known ones', async () => {
    const tools = await mountTools({ mode: 'code' });
    root.set('codeRuntime', scriptedRuntime('toString'));
    expect(() => tools.sdkSection()).toThrow(
      'tools:sdk: no entry for language "toString" (known languages: python, typescript)',
    );
    expect(() => tools.wireTools()).toThrow(
      'run_code: no entry for language "toString" (known languages: python, typescript)',
    );
  });
});

describe('wire tools by mode', () => {
  async function wireNames(mode: string): Promise<string[]> {
    const tools = await mountTools({ mode });
    for (const name of ['zeta', 'alpha']) tools.register(tool(name));
    return tools.wireTools().map((t) => t.name);
  }

  it('native: the tools themselves', async () => expect(await wireNames('native')).toEqual(['alpha', 'zeta']));
  it('code: only run_code', async () => expect(await wireNames('code')).toEqual(['run_code']));
  it('both: run_code, then the tools', async () =>
    expect(await wireNames('both')).toEqual(['run_code', 'alpha', 'zeta']));

  it('sends a native tool as its name, description and parameters', async () => {
    const tools = await mountTools({ mode: 'native' });
    const t = tool('lookup');
    tools.register(t);
    expect(tools.wireTools()).toEqual([{ name: 'lookup', description: t.description, parameters: t.parameters }]);
  });
});

describe('executing', () => {
  it('calls a tool by name and names the registered ones when the name is unknown', async () => {
    const tools = await mountTools({ mode: 'native' });
    tools.register(tool('echo'));
    tools.register(tool('other'));
    await expect(tools.execute('echo', { n: 1 })).resolves.toEqual({ echo: { n: 1 } });
    await expect(tools.execute('ech', {})).rejects.toThrow('tools: no tool named "ech" (registered: echo, other)');
  });

  it('runs a program on the mounted runtime with a tools binding and logs its calls with stable ids', async () => {
    const tools = await mountTools({ mode: 'code' });
    tools.register(tool('echo'));
    tools.register(tool('fail', async () => Promise.reject(new Error('boom'))));
    const runtime = scriptedRuntime('typescript');
    root.set('codeRuntime', runtime);
    const program = JSON.stringify({
      calls: [
        ['echo', { n: 1 }],
        ['fail', {}],
        ['echo', { n: 2 }],
      ],
      return: '$results',
      log: ['done'],
    });
    const run = await tools.runCode({ code: program, description: 'three calls' }, 'call-4');
    expect(run.result).toEqual({
      value: [{ echo: { n: 1 } }, { error: 'boom', toolName: 'fail' }, { echo: { n: 2 } }],
      logs: ['done'],
    });
    expect(run.calls).toEqual([
      { id: 'call-4.1', tool: 'echo', args: { n: 1 }, value: { echo: { n: 1 } } },
      { id: 'call-4.2', tool: 'fail', args: {}, error: 'boom' },
      { id: 'call-4.3', tool: 'echo', args: { n: 2 }, value: { echo: { n: 2 } } },
    ]);
    expect(run).toMatchObject({ callId: 'call-4', language: 'typescript', description: 'three calls', code: program });
    const [binding] = runtime.requests[0]!.bindings;
    expect(binding?.name).toBe('tools');
    expect(binding?.errorClass).toEqual({ name: 'ToolCallError', memberProperty: 'toolName' });
    expect([...binding!.functions.keys()]).toEqual(['echo', 'fail']);
  });

  it('numbers parallel calls in the order they start', async () => {
    const tools = await mountTools({ mode: 'code' });
    tools.register(tool('slow', (args) => new Promise((resolve) => setTimeout(() => resolve(args), 20))));
    tools.register(tool('fast'));
    root.set('codeRuntime', scriptedRuntime());
    const program = JSON.stringify({
      calls: [
        ['slow', 1],
        ['fast', 2],
      ],
      parallel: true,
      return: '$results',
    });
    const run = await tools.runCode({ code: program, description: 'parallel' }, 'call-1');
    expect(run.calls.map((c) => [c.id, c.tool])).toEqual([
      ['call-1.1', 'slow'],
      ['call-1.2', 'fast'],
    ]);
  });

  it('refuses run_code in mode native and without a runtime', async () => {
    const native = await mountTools({ mode: 'native' });
    root.set('codeRuntime', scriptedRuntime());
    await expect(native.runCode({ code: '{}', description: '' }, 'call-1')).rejects.toThrow(
      'run_code: not offered in mode native',
    );
    root.set('codeRuntime', undefined);
    const fresh = new Context();
    fresh.plugin(ToolRegistry, { mode: 'code', pythonFloor: '3.9' });
    await fresh.start();
    await expect(fresh.tools.runCode({ code: '{}', description: '' }, 'call-1')).rejects.toThrow(
      'run_code: no code runtime is mounted',
    );
    await fresh.stop();
  });
});
