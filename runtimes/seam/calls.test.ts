import { describe, expect, it } from 'vitest';
import { answerCall, answerCallText, BRIDGE_LIMITS, BridgeWatch, callLabel, recordedResult } from './calls.js';
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

describe('the bridge bounds', () => {
  /** A JSON string value whose text is exactly `length` characters. */
  const stringOfText = (length: number) => `"${'a'.repeat(length - 2)}"`;
  /** Arrays nested `depth` levels deep. */
  const nested = (depth: number): unknown => {
    let value: unknown = 0;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  const { bytes, depth } = BRIDGE_LIMITS;

  it('carries arguments up to the byte bound and refuses one character past it, before parsing and calling', async () => {
    let called = 0;
    const bindings = tools({ take: async () => ++called });
    for (const length of [bytes - 1, bytes])
      expect(await answerCallText(bindings, 'tools', 'take', stringOfText(length))).toHaveProperty('okJson');
    expect(await answerCallText(bindings, 'tools', 'take', stringOfText(bytes + 1))).toEqual({
      error: `the arguments of tools.take are ${(bytes + 1).toLocaleString('en-US')} bytes of JSON, past the ${bytes.toLocaleString('en-US')} a call may carry (bridgeBytes)`,
    });
    expect(called).toBe(2);
  });

  it('answers results up to the byte bound, and a failed call past it', async () => {
    for (const length of [bytes - 1, bytes, bytes + 1]) {
      const answer = await answerCall(tools({ big: async () => 'a'.repeat(length - 2) }), 'tools', 'big', null);
      if (length <= bytes) expect(answer).toHaveProperty('okJson');
      else
        expect(answer).toMatchObject({
          error: expect.stringMatching(/^the result of tools\.big is [\d,]+ bytes of JSON, past/),
        });
    }
  });

  it('carries values nested up to the depth bound each way, and refuses one level more', async () => {
    for (const levels of [depth - 1, depth]) {
      expect(await answerCall(tools({ deep: async () => nested(levels) }), 'tools', 'deep', null)).toHaveProperty(
        'okJson',
      );
      expect(
        await answerCallText(tools({ m: async () => 1 }), 'tools', 'm', JSON.stringify(nested(levels))),
      ).toHaveProperty('okJson');
    }
    expect(await answerCall(tools({ deep: async () => nested(depth + 1) }), 'tools', 'deep', null)).toEqual({
      error: `the result of tools.deep nests deeper than the ${depth} levels a call may carry (bridgeDepth)`,
    });
    expect(await answerCallText(tools({ m: async () => 1 }), 'tools', 'm', JSON.stringify(nested(depth + 1)))).toEqual({
      error: `the arguments of tools.m nest deeper than the ${depth} levels a call may carry (bridgeDepth)`,
    });
  });

  it('takes the bounds a runtime is configured with, counting UTF-8 bytes (cap - 1, cap, cap + 1)', async () => {
    const watch = () => new BridgeWatch({ bytes: 12, depth: 2 });
    const take = tools({ take: async () => null });
    // "éééé" is 4 characters, 8 bytes, and 10 with its quotes.
    for (const [text, passes] of [
      ['"éééé"', true],
      ['"ééééa"', true],
      ['"éééééa"', false],
    ] as const) {
      const answer = await answerCallText(take, 'tools', 'take', text, watch());
      if (passes) expect(answer, text).toHaveProperty('okJson');
      else
        expect(answer).toEqual({
          error: 'the arguments of tools.take are 13 bytes of JSON, past the 12 a call may carry (bridgeBytes)',
        });
    }
    expect(await answerCallText(take, 'tools', 'take', '[[1]]', watch())).toHaveProperty('okJson');
    expect(await answerCallText(take, 'tools', 'take', '[[[1]]]', watch())).toEqual({
      error: 'the arguments of tools.take nest deeper than the 2 levels a call may carry (bridgeDepth)',
    });
  });

  it('ends the run as kind bridge-limit once a call passed a bound, even when the program caught it', async () => {
    const watch = new BridgeWatch({ bytes: 5, depth: 2 });
    const ran = { value: 'caught', logs: ['a'] };
    expect(watch.settle(ran)).toBe(ran);
    await answerCallText(tools({ take: async () => null }), 'tools', 'take', '"too long"', watch);
    expect(watch.settle(ran)).toEqual({
      logs: ['a'],
      error: {
        kind: 'bridge-limit',
        message: 'the arguments of tools.take are 10 bytes of JSON, past the 5 a call may carry (bridgeBytes)',
      },
    });
    const aborted = { logs: [], error: { kind: 'abort' as const, message: 'the run was aborted' } };
    expect(watch.settle(aborted)).toBe(aborted);
  });
});
