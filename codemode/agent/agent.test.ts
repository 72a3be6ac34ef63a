import { Context } from 'cordis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelResponse } from '../../contract/model.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import type { ToolMode } from '../tools/config.js';
import { ToolRegistry } from '../tools/registry.js';
import { callTools, finalAnswer, scriptedModel } from '../tools/test/scripted-model.js';
import { scriptedRuntime } from '../tools/test/scripted-runtime.js';
import type { RegisteredTool } from '../tools/types.js';
import { Agent, TurnLimitError } from './agent.js';
import { formatRunResult } from './result-text.js';
import { CODE_ONLY_RULE } from './sections.js';

const lookup: RegisteredTool = {
  name: 'lookup',
  description: 'Finds a user by id.',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  output: { type: 'object', properties: { name: { type: 'string' } } },
  async execute(args) {
    const { id } = args as { id: string };
    if (id === 'missing') throw new Error(`no user ${id}`);
    (args as Record<string, JsonValue>)['id'] = 'changed by the tool';
    return { name: `user ${id}` };
  },
};

const PERSONA = 'You help with user records.';
let root: Context;
let problems: string[];

beforeEach(() => {
  root = new Context();
  problems = [];
  root.on('internal/error', (error: unknown) => void problems.push(String(error)), { global: true });
  root.on('internal/warning', (warning: unknown) => void problems.push(String(warning)), { global: true });
});

afterEach(async () => {
  await root.stop();
});

async function mountAgent(
  mode: ToolMode,
  responses: ModelResponse[],
  options: { runtime?: boolean; maxTurns?: number; extra?: RegisteredTool } = {},
) {
  const model = scriptedModel(responses);
  root.set('model', model);
  if (options.runtime !== false) root.set('codeRuntime', scriptedRuntime('python'));
  root.plugin(ToolRegistry, { mode, pythonFloor: '3.9' });
  root.plugin({
    name: 'fixture',
    inject: ['tools'],
    apply: (ctx: Context) =>
      void [lookup, ...(options.extra ? [options.extra] : [])].forEach((tool) => ctx.tools.register(tool)),
  });
  root.plugin(Agent, { persona: PERSONA, ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}) });
  await root.start();
  return { agent: root.agent, model };
}

const program = JSON.stringify({
  calls: [
    ['lookup', { id: '7' }],
    ['lookup', { id: 'missing' }],
  ],
  return: '$results',
  log: ['looked up'],
});

describe('the agent loop in mode code', () => {
  it('sends persona, the code-only rule and the SDK, runs run_code and feeds the result back', async () => {
    const { agent, model } = await mountAgent('code', [
      callTools({ id: 'model-a', name: 'run_code', arguments: { code: program, description: 'two lookups' } }),
      finalAnswer('User 7 exists.'),
    ]);
    const conversation = await agent.run('Who is user 7?');

    const [first, second] = model.requests;
    expect(first?.system).toEqual([
      { id: 'persona', text: PERSONA },
      { id: 'code-only', text: CODE_ONLY_RULE },
      { id: 'tools:sdk', text: root.tools.sdkSection() },
    ]);
    expect(first?.system[2]?.text).toMatch(/^```python\n/);
    expect(first?.tools.map((t) => t.name)).toEqual(['run_code']);
    expect(first?.messages).toEqual([{ role: 'user', content: 'Who is user 7?' }]);

    const [run] = conversation.programs;
    expect(run?.calls).toEqual([
      { id: 'call-1.1', tool: 'lookup', args: { id: '7' }, value: { name: 'user 7' } },
      { id: 'call-1.2', tool: 'lookup', args: { id: 'missing' }, error: 'no user missing' },
    ]);
    expect(run?.result).toEqual({
      value: [{ name: 'user 7' }, { error: 'no user missing', toolName: 'lookup' }],
      logs: ['looked up'],
    });
    expect(second?.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'model-a', name: 'run_code', arguments: { code: program, description: 'two lookups' } }],
      },
      { role: 'tool', toolCallId: 'model-a', content: formatRunResult(run!.result) },
    ]);
    expect(conversation.answer).toBe('User 7 exists.');
    expect(conversation.messages).toHaveLength(4);
    expect(conversation.requests).toEqual(model.requests);
    expect(conversation.toolCalls).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('keeps each recorded request as it was sent', async () => {
    const { agent } = await mountAgent('code', [
      callTools({ id: 'a', name: 'run_code', arguments: { code: program, description: 'x' } }),
      finalAnswer('done'),
    ]);
    const conversation = await agent.run('go');
    expect(conversation.requests[0]?.messages).toHaveLength(1);
    expect(conversation.requests[1]?.messages).toHaveLength(3);
  });

  it('answers a malformed run_code call with the reason and runs nothing', async () => {
    const { agent, model } = await mountAgent('code', [
      callTools({ id: 'a', name: 'run_code', arguments: { code: 'return 1' } }),
      finalAnswer('sorry'),
    ]);
    const conversation = await agent.run('go');
    expect(conversation.programs).toEqual([]);
    expect(model.requests[1]?.messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'a',
      content: 'error: run_code: "description" must be a string',
    });
  });

  it('answers a call to a tool that is not offered, naming the offered ones', async () => {
    const { agent, model } = await mountAgent('code', [
      callTools({ id: 'a', name: 'lookup', arguments: { id: '1' } }),
      finalAnswer('ok'),
    ]);
    await agent.run('go');
    expect(model.requests[1]?.messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'a',
      content: 'error: no tool named "lookup" is offered (offered: run_code)',
    });
  });

  it('fails loudly when no code runtime is mounted', async () => {
    const { agent } = await mountAgent(
      'code',
      [callTools({ id: 'a', name: 'run_code', arguments: { code: program, description: 'x' } })],
      { runtime: false },
    );
    await expect(agent.run('go')).rejects.toThrow('run_code: no code runtime is mounted');
  });

  it('stops at maxTurns with a clear error that carries the conversation so far', async () => {
    const loop = callTools({ id: 'a', name: 'run_code', arguments: { code: program, description: 'again' } });
    const { agent } = await mountAgent('code', [loop, loop, loop], { maxTurns: 2 });
    const failure = await agent.run('go').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TurnLimitError);
    expect((failure as Error).message).toBe(
      'agent: the model gave no final answer within 2 turns (raise maxTurns in the agent config if the task needs more)',
    );
    const { conversation } = failure as TurnLimitError;
    expect(conversation.requests).toHaveLength(2);
    expect(conversation.programs.map((p) => p.callId)).toEqual(['call-1', 'call-2']);
    expect(conversation.answer).toBeUndefined();
  });
});

describe('the agent loop in modes native and both', () => {
  it('both: sends the SDK but no code-only rule, and runs native calls and programs with one numbering', async () => {
    const { agent, model } = await mountAgent('both', [
      callTools(
        { id: 'n1', name: 'lookup', arguments: { id: '1' } },
        { id: 'p1', name: 'run_code', arguments: { code: program, description: 'program' } },
        { id: 'n2', name: 'lookup', arguments: { id: 'missing' } },
      ),
      finalAnswer('done'),
    ]);
    const conversation = await agent.run('go');
    expect(model.requests[0]?.system.map((s) => s.id)).toEqual(['persona', 'tools:sdk']);
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['run_code', 'lookup']);
    expect(conversation.toolCalls).toEqual([
      { id: 'call-1', tool: 'lookup', args: { id: '1' }, value: { name: 'user 1' } },
      { id: 'call-3', tool: 'lookup', args: { id: 'missing' }, error: 'no user missing' },
    ]);
    expect(conversation.programs.map((p) => p.calls.map((c) => c.id))).toEqual([['call-2.1', 'call-2.2']]);
    expect(
      model.requests[1]?.messages.slice(2).map((m) => m.role === 'tool' && [m.toolCallId, m.content.split('\n')[0]]),
    ).toEqual([
      ['n1', '{"name":"user 1"}'],
      ['p1', 'value: [{"name":"user 7"},{"error":"no user missing","toolName":"lookup"}]'],
      ['n2', 'error: no user missing'],
    ]);
  });

  it('records a result that is not JSON as the failure the caller receives, native or from a program', async () => {
    const cyclic: RegisteredTool = {
      name: 'cyclic',
      description: 'Answers a value that contains itself.',
      parameters: { type: 'object', properties: {} },
      async execute() {
        const node: Record<string, unknown> = { name: 'a' };
        node.self = node;
        return node as JsonValue;
      },
    };
    const calling = JSON.stringify({ calls: [['cyclic', {}]], return: null });
    const { agent, model } = await mountAgent(
      'both',
      [
        callTools(
          { id: 'n', name: 'cyclic', arguments: {} },
          { id: 'p', name: 'run_code', arguments: { code: calling, description: 'cycle' } },
        ),
        finalAnswer('done'),
      ],
      { extra: cyclic },
    );
    const conversation = await agent.run('go');
    const failure =
      'the host answered with a value that is not JSON: the result of tools.cyclic: $.self: a cycle (the value contains itself) is not JSON';
    expect(conversation.toolCalls).toEqual([{ id: 'call-1', tool: 'cyclic', args: {}, error: failure }]);
    expect(conversation.programs[0]?.calls).toEqual([{ id: 'call-2.1', tool: 'cyclic', args: {}, error: failure }]);
    expect(model.requests[1]?.messages[2]).toEqual({ role: 'tool', toolCallId: 'n', content: `error: ${failure}` });
    expect(conversation.answer).toBe('done');
  });

  it('native: persona only, the tools themselves, and run_code is not offered', async () => {
    const { agent, model } = await mountAgent('native', [
      callTools({ id: 'p', name: 'run_code', arguments: { code: program, description: 'x' } }),
      finalAnswer('ok'),
    ]);
    const conversation = await agent.run('go');
    expect(model.requests[0]?.system).toEqual([{ id: 'persona', text: PERSONA }]);
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['lookup']);
    expect(model.requests[1]?.messages[2]).toMatchObject({
      content: 'error: no tool named "run_code" is offered (offered: lookup)',
    });
    expect(conversation.programs).toEqual([]);
  });
});

describe('agent config', () => {
  it('refuses a missing persona and a bad maxTurns, naming both', async () => {
    root.set('model', scriptedModel([]));
    root.plugin(ToolRegistry, { mode: 'code' });
    root.plugin(Agent, { maxTurns: 0 } as never);
    await root.start();
    expect(root.get('agent')).toBeUndefined();
    expect(problems.join('\n')).toContain(
      'agent: bad config: persona must be a non-empty string; maxTurns must be a whole number of at least 1, got 0',
    );
  });
});
