import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../contract/model.js';
import { parseScenario } from '../scenario/load.js';
import { ScriptedAnswers, ScriptMismatch } from './script.js';

const scenario = parseScenario(
  '/s/two-steps.yml',
  `name: two-steps
description: Two programs.
composition:
  - id: agent
    plugin: concord/agent
script:
  - user: Count.
  - assistant:
      run_code:
        description: first
        typescript: return 1;
        python: return 1
      result_includes: ['value: 1']
  - assistant:
      say: again
      run_code:
        description: second
        typescript: return 2;
        python: return 2
  - final: Done.
`,
);

const tools = [{ name: 'run_code', description: 'd', parameters: {} }];
const request = (messages: ModelRequest['messages']): ModelRequest => ({ system: [], tools, messages });
const call = (n: number, code: string, description: string) => ({
  id: `call-${n}`,
  name: 'run_code',
  arguments: { code, description },
});

describe('the scripted model', () => {
  it('answers each request from the script, in the runtime language', () => {
    const answers = new ScriptedAnswers(scenario, 'python');
    const first = answers.answer(request([{ role: 'user', content: 'Count.' }]));
    expect(first).toEqual({ content: '', toolCalls: [call(1, 'return 1', 'first')] });
    const second = answers.answer(
      request([
        { role: 'user', content: 'Count.' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call-1', content: 'value: 1' },
      ]),
    );
    expect(second).toEqual({ content: 'again', toolCalls: [call(2, 'return 2', 'second')] });
    expect(answers.finished).toBe(false);
  });

  it('names the first difference when the request departs from the script', () => {
    const answers = new ScriptedAnswers(scenario, 'typescript');
    answers.answer(request([{ role: 'user', content: 'Count.' }]));
    const live = request([
      { role: 'user', content: 'Count.' },
      { role: 'assistant', content: '', toolCalls: [call(1, 'return 10;', 'first')] },
      { role: 'tool', toolCallId: 'call-1', content: 'value: 1' },
    ]);
    expect(() => answers.answer(live)).toThrow(ScriptMismatch);
    let thrown: unknown;
    try {
      new ScriptedAnswers(scenario, 'typescript').answer(request([{ role: 'user', content: 'Count!' }]));
    } catch (error) {
      thrown = error;
    }
    // Asserted outside the catch: a call that no longer throws must fail here, not pass silently.
    expect(thrown).toBeInstanceOf(ScriptMismatch);
    expect((thrown as Error).message).toContain(
      'request 1 does not fit the script; first difference at messages[0].content',
    );
    expect((thrown as Error).message).toContain('- script:  "Count."');
    expect((thrown as Error).message).toContain('+ request: "Count!"');
  });

  it('shows the path into the earlier tool call that changed', () => {
    const answers = new ScriptedAnswers(scenario, 'typescript');
    answers.answer(request([{ role: 'user', content: 'Count.' }]));
    const live = request([
      { role: 'user', content: 'Count.' },
      { role: 'assistant', content: '', toolCalls: [call(1, 'return 10;', 'first')] },
      { role: 'tool', toolCallId: 'call-1', content: 'value: 1' },
    ]);
    expect(() => answers.answer(live)).toThrow(/first difference at messages\[1\]\.toolCalls\[0\]\.arguments\.code/);
  });

  it('fails when a tool result lacks what the script expects', () => {
    const answers = new ScriptedAnswers(scenario, 'typescript');
    const first = answers.answer(request([{ role: 'user', content: 'Count.' }]));
    const live = request([
      { role: 'user', content: 'Count.' },
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'call-1', content: 'value: {"id":"n5","count":3}\nlogs: (none)\nerror: (none)\n' },
    ]);
    // Three lines: the mismatch, what the script wants, the whole result (a progress line cut at six keeps them).
    expect(() => answers.answer(live)).toThrow(
      /the result of call-1 should include "value: 1"\n {2}- script: {2}\(text including\) value: 1\n {2}\+ request: value: \{"id":"n5","count":3\} ⏎ logs: \(none\) ⏎ error: \(none\)$/,
    );
  });

  it('refuses to answer past the final answer', () => {
    const answers = new ScriptedAnswers(scenario, 'typescript');
    const history: ModelRequest['messages'] = [{ role: 'user', content: 'Count.' }];
    for (let i = 0; i < 3; i++) {
      const response = answers.answer(request([...history]));
      history.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
      for (const c of response.toolCalls) history.push({ role: 'tool', toolCallId: c.id, content: 'value: 1' });
    }
    expect(answers.finished).toBe(true);
    expect(() => answers.answer(request(history))).toThrow(/already gave its final answer/);
  });
});
