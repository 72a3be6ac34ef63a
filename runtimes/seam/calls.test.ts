import { describe, expect, it } from 'vitest';
import { answerCall, answerCallText, callLabel, recordedResult } from './calls.js';
import type { BindingFunction, BindingNamespace } from './types.js';

function tools(members: Record<string, () => unknown>): BindingNamespace[] {
  const functions = new Map<string, BindingFunction>(
    Object.entries(members).map(([name, fn]) => [name, fn as BindingFunction]),
  );
  return [{ name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } }];
}

describe('answering a call', () => {
  it('labels members the way both languages write them', () => {
    expect(callLabel('tools', 'search')).toBe('tools.search');
    expect(callLabel('tools', 'exotic-name')).toBe('tools["exotic-name"]');
  });

  it('answers with the result as JSON text', async () => {
    expect(await answerCall(tools({ echo: async () => ({ a: [1] }) }), 'tools', 'echo', null)).toEqual({
      okJson: '{"a":[1]}',
    });
  });

  it.each<[string, () => unknown, RegExp]>([
    [
      'a throwing getter in the result',
      async () => ({
        get boom(): never {
          throw new Error('getter exploded');
        },
      }),
      /tools\.m could not be read: getter exploded/,
    ],
    [
      'a cyclic result',
      async () => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      },
      /\$\.self: a cycle/,
    ],
    ['a BigInt', async () => ({ n: 10n }), /\$\.n: a bigint is not JSON/],
    [
      'a rejection',
      async () => {
        throw new Error('tool broke');
      },
      /^tool broke$/,
    ],
    [
      'a synchronous throw',
      () => {
        throw new Error('sync broke');
      },
      /^sync broke$/,
    ],
    [
      'a thrown value whose message getter throws',
      async () => {
        throw Object.create(Error.prototype, {
          message: {
            get() {
              throw new Error('x');
            },
          },
        });
      },
      /cannot be read/,
    ],
  ])('turns %s into an error answer, never a rejection', async (_, fn, message) => {
    const answer = await answerCall(tools({ m: fn }), 'tools', 'm', null);
    expect('error' in answer && answer.error).toMatch(message);
  });

  it('records a result as a copy, or as the very failure the program receives when it is not JSON', async () => {
    const answered = { a: [1] };
    const recorded = recordedResult(answered, 'tools', 'exotic-name');
    answered.a.push(2);
    expect(recorded).toEqual({ value: { a: [1] } });
    const results: unknown[] = [
      { f: () => 1 },
      { when: new Date(0) },
      { n: NaN },
      {
        get boom(): never {
          throw new Error('getter exploded');
        },
      },
    ];
    for (const result of results) {
      const answer = await answerCall(tools({ 'exotic-name': async () => result }), 'tools', 'exotic-name', null);
      expect('error' in answer).toBe(true);
      expect(recordedResult(result, 'tools', 'exotic-name')).toEqual(answer);
    }
  });

  it('answers a member or namespace that does not exist, and arguments that are not JSON, with an error', async () => {
    let called = 0;
    const bindings = tools({ m: async () => void called++ });
    expect(await answerCallText(bindings, 'tools', 'missing', '{}')).toEqual({
      error: 'tools has no member "missing"',
    });
    expect(await answerCallText(bindings, 'other', 'm', '{}')).toEqual({ error: 'other has no member "m"' });
    expect(await answerCallText(bindings, 'tools', '__proto__', '{}')).toEqual({
      error: 'tools has no member "__proto__"',
    });
    expect(await answerCallText(bindings, 'tools', 'm', '{"a":')).toMatchObject({
      error: expect.stringMatching(/the arguments of tools\.m/),
    });
    expect(called).toBe(0);
  });
});
