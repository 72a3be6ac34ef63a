import { afterAll, describe, expect, it } from 'vitest';
import { createCpythonRuntime } from '../cpython/runtime.js';
import { createWorkerRuntime } from '../worker/runtime.js';
import { BRIDGE_LIMITS } from './calls.js';
import type { BindingNamespace, CodeRuntime, JsonValue } from './types.js';

/**
 * A program and a tool past the bridge's bounds, on the runtimes a gate runs on every machine: the program gets a
 * failed call naming the bound at once, and the run goes on to its end, where a value too big or too deep for the
 * host or the guest once crashed one or the other.
 */

function nested(depth: number): JsonValue {
  let value: JsonValue = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const tools = (): BindingNamespace[] => [
  {
    name: 'tools',
    functions: new Map([
      ['take', async () => 'taken'],
      ['deep', async () => nested(BRIDGE_LIMITS.depth * 3)],
    ]),
    errorClass: { name: 'ToolCallError', memberProperty: 'toolName' },
  },
];

const runtimes: CodeRuntime[] = [];
afterAll(() => Promise.all(runtimes.map((runtime) => runtime.dispose())));

describe('past the bridge bounds', () => {
  it('a TypeScript program sending more than a call may carry gets a ToolCallError naming the bound', {
    timeout: 60_000,
  }, async () => {
    const runtime = createWorkerRuntime({ timeoutMs: 30_000 });
    runtimes.push(runtime);
    const program = [
      `const big = 'a'.repeat(${BRIDGE_LIMITS.bytes + 10});`,
      'try { await tools.take({ big }); return "sent"; }',
      'catch (error) { console.log(String(error.message)); return "caught"; }',
    ].join('\n');
    const result = await runtime.run({ program, bindings: tools(), timeoutMs: 30_000 });
    const bound =
      /^the arguments of tools\.take are [\d,]+ bytes of JSON, past the [\d,]+ a call may carry \(bridgeBytes\)$/;
    // The program had the failed call at once (it logged it); the run ends as the bound's own kind all the same.
    expect(result.logs).toEqual([expect.stringMatching(bound)]);
    expect(result.error?.kind).toBe('bridge-limit');
    expect(result.error?.message).toMatch(bound);
  });

  it('a Python program answered with a value nested past its decoder gets a ToolCallError at once', {
    timeout: 60_000,
  }, async () => {
    const runtime = await createCpythonRuntime({ isolation: 'process', timeoutMs: 20_000 });
    runtimes.push(runtime);
    const program =
      'try:\n    await tools.deep({})\n    return "answered"\nexcept ToolCallError as error:\n    print(str(error))\n    return "caught"';
    const result = await runtime.run({ program, bindings: tools(), timeoutMs: 20_000 });
    const bound = `the result of tools.deep nests deeper than the ${BRIDGE_LIMITS.depth} levels a call may carry (bridgeDepth)`;
    expect(result.logs).toEqual([bound]);
    expect(result.error).toEqual({ kind: 'bridge-limit', message: bound });
  });
});
