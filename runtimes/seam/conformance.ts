import { afterAll, it as anyIt, beforeAll, describe, expect } from 'vitest';
import { RuntimeOptionError } from './options.js';
import type {
  BindingFunction,
  BindingNamespace,
  CodeRuntime,
  JsonValue,
  Language,
  RunRequest,
  RunResult,
} from './types.js';

/**
 * The conformance suite every code-runtime backend must pass: the same programs, written in TypeScript
 * and in Python side by side, must give the same RunResult whatever runs them.
 *
 * Use it from a backend's test file:
 *
 * ```ts
 * import { describeConformance } from '../seam/conformance.js';
 * describeConformance('cpython process', (limits) => createCpythonRuntime({ isolation: 'process', ...limits }));
 * describeConformance('cpython 3.9 container', makeIt, { skip: dockerMissing ? 'no Docker engine answers' : false });
 * ```
 *
 * `makeRuntime(limits)` is called once (in `beforeAll`) and serves every case; the last case disposes it in
 * the middle of a run, and `afterAll` disposes it again (a second dispose must do nothing). The cases run in
 * order, one at a time; with `{ concurrent: true }` the suite runs beside its parent's other concurrent
 * suites (as the CPython images' do), so that one's waits for budgets overlap another's work. It must
 * honour `limits.timeoutMs` (the default time budget of a run), `limits.outputLimitBytes` (the cap on
 * the UTF-8 bytes of all log lines plus the JSON text of the returned value) and `limits.bridgeBytes` (the
 * bytes of JSON one tool call may carry each way). The program source is chosen
 * by `runtime.language`. The bindings are one namespace `tools` with error class `ToolCallError`
 * (member property `toolName`) and these members, fresh for every run:
 *   - `echo(args)` answers `args`; `exotic-name(args)` answers `{exotic: args}`; `__proto__(args)` answers
 *     `{proto: args}`; `fail(args)` rejects with the message `fixture failure: fail`; `declined`,
 *     `not-found`, `odd-payload` and `throws-text` reject with a code and data, a numeric code, a code and
 *     data that cannot cross, and a thrown string;
 *   - `getter()`, `cyclic()` and `bigint()` answer values that are not JSON (a throwing getter, a cycle, a
 *     BigInt): the program gets the error class, never a hang;
 *   - `barrier(args)` answers `args` once two barrier calls are pending at the same time (so it proves the
 *     calls really run in parallel); `hang()` never answers; `started()` answers null (by it the cases that
 *     time or abort a run see that the program is running).
 *
 * What the suite pins down (the contract in docs/architecture.md, made exact):
 *   - a successful run has `value` (null when the program returns nothing) and no `error`; a failed run has
 *     `error` and no `value`; logs gathered before a failure are kept;
 *   - logs are lines: `console.log(a, b)` / `print(a, b)` join their arguments with one space, and text
 *     holding `\n` becomes several lines;
 *   - a rejected host function reaches the program as the namespace's error class: an instance of it, with
 *     the host's message unchanged as its message (`e.message` / `str(e)`) and the member name in `toolName`;
 *     the thrown error's `code` (a string or a safe integer) and `data` (lossless JSON, built from the
 *     program's own objects) in `code` and `data`, absent (`undefined` / `None`) when it had none; data
 *     that is not JSON is left out and the message says so;
 *   - an uncaught error is kind `exception` with the program-side class name in `error.name` (`RangeError`,
 *     `ValueError`, a program's own class `Oops`, `ToolCallError`, `SyntaxError` for a program that does not
 *     parse) and its message inside `error.message`;
 *   - arguments that are not lossless JSON (NaN) are refused inside the program, before the host is called;
 *   - a return value that is not lossless JSON (NaN, -0, a Map or set, a date) is kind `invalid-output`
 *     whose message names the JSON path of the offending value (`$.list[1]`);
 *   - `__proto__` is an ordinary key and an ordinary member name; nothing pollutes the host's prototypes;
 *   - output costs the UTF-8 bytes of each printed line plus its newline, plus the JSON text of the returned
 *     value, plus the bytes a Python program writes straight to fds 1 and 2; exactly the cap passes, one
 *     byte more is kind `output-limit` (runtimes/seam/output.ts);
 *   - a `timeoutMs` that is not an integer from 1 to 3,600,000 is refused with RuntimeOptionError, in the
 *     config and in a request; disposing a runtime ends the run in progress as `worker-exit`;
 *   - a run over its time budget is kind `timeout`; an aborted signal is kind `abort` (an already aborted
 *     signal runs nothing); output over the cap is kind `output-limit`; after each, the next run is clean;
 *   - a result that reached the host within the budget is the run's result, even when the host was too busy
 *     to read it before the deadline passed (runtimes/seam/budget.ts);
 *   - a call whose arguments are exactly `bridgeBytes` of JSON is carried; one byte more fails the call with the
 *     error class naming the bound, and the run ends as kind `bridge-limit` though the program caught it;
 *   - no state survives between runs: globals set and builtins patched by one run are gone in the next.
 */

export interface ConformanceLimits {
  timeoutMs: number;
  outputLimitBytes: number;
  bridgeBytes: number;
}

export interface ConformanceOptions {
  /** A reason to skip the whole suite (e.g. no Docker engine answers); it is shown in the test name. */
  skip?: string | false;
  /** Run beside the other concurrent suites of the same parent; the suite's own cases stay in order. */
  concurrent?: boolean;
}

/**
 * The suite's cases depend on their order (the last one disposes the runtime), even in a concurrent suite.
 * A case whose assertion awaits a promise takes the test context's `expect`: in a concurrent suite the
 * global one may record that promise on a case of another suite.
 */
const it = anyIt.sequential;

/**
 * The busy-host case holds the whole thread, so the deadline of a busy-host case in a suite running beside it
 * would pass while the program's tool call waits unread: those cases take turns.
 */
let holdTurn: Promise<void> = Promise.resolve();
function takingTurns<T>(work: () => Promise<T>): Promise<T> {
  const turn = holdTurn.then(work);
  holdTurn = turn.then(
    () => {},
    () => {},
  );
  return turn;
}

/**
 * The limits the suite creates runtimes with. The output cap is above a pipe's 64 KiB, so output at the cap
 * (one long line included) crosses several reads; the cases that count output to the byte cost in proportion
 * to it, on every runtime.
 */
export const CONFORMANCE_LIMITS: ConformanceLimits = {
  timeoutMs: 30_000,
  outputLimitBytes: 100_000,
  bridgeBytes: 50_000,
};

/**
 * How long past its deadline a busy host is held. The timer only has to be due when the host wakes (timers
 * count whole milliseconds); the hold sleeps, so this is waiting time, not work.
 */
const HOLD_PAST_DEADLINE_MS = 100;

/**
 * The budgets the cases about a run's time budget give their program, in turn. Such a case only means
 * something when the program reached its first tool call within the budget (it was running when the budget
 * ran out); on a machine too loaded for that, the next budget is tried. Where the machine has room every
 * runtime makes that call within tens of milliseconds, so the first budget is short: those cases wait for
 * their whole budget.
 */
const BUDGETS_MS = [250, 1_500, 4_000, 10_000] as const;

/**
 * What one try of a time-budget case saw: the run's result, when (ms after it was asked for) the program made its
 * marked call, and what else the machine's timing left undone so that the try proves nothing, if anything.
 */
interface BudgetTry {
  result: RunResult;
  calledAfterMs: number | undefined;
  missed?: string;
}

/**
 * Runs `attempt` with each of BUDGETS_MS until the program made its marked call within its budget (and missed
 * nothing else), or none is left; gives the last try, and a line saying how it was timed for the assertions'
 * messages.
 */
async function withinBudget<T extends BudgetTry>(
  attempt: (budgetMs: number) => Promise<T>,
): Promise<T & { budgetMs: number; timing: string }> {
  for (const [index, budgetMs] of BUDGETS_MS.entries()) {
    const tried = await attempt(budgetMs);
    const reached = tried.calledAfterMs !== undefined && tried.calledAfterMs < budgetMs && tried.missed === undefined;
    if (!reached && index < BUDGETS_MS.length - 1) continue;
    const called =
      tried.calledAfterMs === undefined
        ? `the tool was never called within ${budgetMs} ms`
        : `the tool was called ${Math.round(tried.calledAfterMs)} ms into the ${budgetMs} ms budget`;
    return { ...tried, budgetMs, timing: tried.missed === undefined ? called : `${called}; ${tried.missed}` };
  }
  throw new Error('BUDGETS_MS is empty');
}

type Programs = Record<Language, string>;

interface FixtureCall {
  member: string;
  args: JsonValue;
}

interface Fixture {
  bindings: BindingNamespace[];
  calls: FixtureCall[];
  /** The raw argument objects the host functions received, to check how they were rebuilt. */
  received: unknown[];
}

/** A fresh fixture; `onCall` sees each member's name as the program calls it, before the member answers. */
function makeFixture(onCall?: (member: string) => void): Fixture {
  const calls: FixtureCall[] = [];
  const received: unknown[] = [];
  const waiting: (() => void)[] = [];
  const member = (name: string, answer: (args: JsonValue) => Promise<JsonValue>): [string, BindingFunction] => [
    name,
    (args) => {
      calls.push({ member: name, args });
      received.push(args);
      onCall?.(name);
      return answer(args);
    },
  ];
  const functions = new Map<string, BindingFunction>([
    member('echo', async (args) => args),
    member('exotic-name', async (args) => ({ exotic: args })),
    member('__proto__', async (args) => ({ proto: args })),
    member('fail', async () => {
      throw new Error('fixture failure: fail');
    }),
    member('declined', async () => {
      throw Object.assign(new Error('the card was declined'), {
        code: 'card_declined',
        data: { limit: 500, reasons: ['over limit', null], nested: { ok: false } },
      });
    }),
    member('not-found', async () => {
      throw Object.assign(new Error('no such order'), { code: 404 });
    }),
    member('odd-payload', async () => {
      throw Object.assign(new Error('odd'), { code: { not: 'a code' }, data: { when: new Date(0) } });
    }),
    member('throws-text', async () => {
      throw 'plain text';
    }),
    member('barrier', (args) => {
      return new Promise((resolve) => {
        waiting.push(() => resolve(args));
        if (waiting.length >= 2) for (const release of waiting.splice(0)) release();
      });
    }),
    member('hang', () => new Promise<JsonValue>(() => {})),
    member(
      'getter',
      async () =>
        ({
          get boom(): JsonValue {
            throw new Error('the getter exploded');
          },
        }) as unknown as JsonValue,
    ),
    member('cyclic', async () => {
      const node: Record<string, unknown> = { name: 'loop' };
      node.self = node;
      return node as JsonValue;
    }),
    member('bigint', async () => ({ n: 10n }) as unknown as JsonValue),
    member('started', async () => null),
  ]);
  return {
    bindings: [{ name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } }],
    calls,
    received,
  };
}

function expectSuccess(result: RunResult, value: JsonValue, context?: string): void {
  expect(result.error, context).toBeUndefined();
  expect(result.value).toEqual(value);
}

function expectFailure(result: RunResult, kind: string): void {
  expect(result.error?.kind, `expected kind ${kind}, got ${JSON.stringify(result)}`.slice(0, 2_000)).toBe(kind);
  expect(result.value).toBeUndefined();
}

/**
 * Blocks this thread for `ms`: nothing else of the host runs meanwhile, as when it is too busy. It sleeps
 * rather than spins, so the cores stay free for the runtime's own processes.
 */
function holdEventLoop(ms: number): void {
  const end = performance.now() + ms;
  for (let left = ms; left > 0; left = end - performance.now())
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, left);
}

/** A program that prints lines of `lineChars` characters costing `logBytes` in all, then returns null (4 bytes). */
function printing(logBytes: number, lineChars: number): Programs {
  const lineCost = lineChars + 1;
  const full = Math.floor(logBytes / lineCost);
  const rest = logBytes - full * lineCost;
  // The last line takes up the remainder: it costs `rest` bytes, so it holds rest - 1 characters.
  const last = rest === 0 ? 0 : rest - 1;
  return {
    typescript: `for (let i = 0; i < ${full}; i++) console.log("x".repeat(${lineChars}));\n${rest === 0 ? '' : `console.log("y".repeat(${last}));\n`}return null;`,
    python: `for i in range(${full}):\n    print("x" * ${lineChars})\n${rest === 0 ? '' : `print("y" * ${last})\n`}return None`,
  };
}

/**
 * Declares the conformance suite of one backend. One function by design: its tests share the runtime it makes, the
 * limits and the helpers in its closure, and a backend's author reads the whole contract, edge by edge, in one place.
 */
export function describeConformance(
  label: string,
  makeRuntime: (limits: ConformanceLimits) => CodeRuntime | Promise<CodeRuntime>,
  options: ConformanceOptions = {},
): void {
  if (options.skip) {
    describe.skip(`conformance: ${label} (skipped: ${options.skip})`, () => {
      it('needs its backend', () => {});
    });
    return;
  }

  describe(`conformance: ${label}`, { concurrent: options.concurrent === true }, () => {
    let runtime: CodeRuntime;
    beforeAll(async () => {
      runtime = await makeRuntime(CONFORMANCE_LIMITS);
    });
    afterAll(async () => {
      await runtime?.dispose();
    });

    const run = (programs: Programs, fixture = makeFixture(), extra: Partial<RunRequest> = {}): Promise<RunResult> =>
      runtime.run({ program: programs[runtime.language], bindings: fixture.bindings, ...extra });

    /** After a failure, the runtime must still work and start from scratch. */
    const expectCleanNextRun = async (): Promise<void> => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript:
            'return { leftover: "leftover" in globalThis ? "present" : "absent", echo: await tools.echo({ again: true }) };',
          python: [
            'try:',
            '    leftover',
            '    seen = "present"',
            'except NameError:',
            '    seen = "absent"',
            'return {"leftover": seen, "echo": await tools.echo({"again": True})}',
          ].join('\n'),
        },
        fixture,
      );
      expectSuccess(result, { leftover: 'absent', echo: { again: true } });
    };

    it('returns values of every JSON kind', async () => {
      const result = await run({
        typescript:
          'return { nothing: null, yes: true, no: false, int: 42, negative: -7, float: 1.5, big: 1e21, ' +
          'text: "h\\u00e9llo \\u2713 \\u{1F600} \\"q\\"", list: [1, "two", [3]], nested: { a: { b: [] } }, empty: {} };',
        python:
          'return {"nothing": None, "yes": True, "no": False, "int": 42, "negative": -7, "float": 1.5, "big": 1e21, ' +
          '"text": "h\\u00e9llo \\u2713 \\U0001F600 \\"q\\"", "list": [1, "two", [3]], "nested": {"a": {"b": []}}, "empty": {}}',
      });
      expectSuccess(result, {
        nothing: null,
        yes: true,
        no: false,
        int: 42,
        negative: -7,
        float: 1.5,
        big: 1e21,
        text: 'h\u00e9llo \u2713 \u{1F600} "q"',
        list: [1, 'two', [3]],
        nested: { a: { b: [] } },
        empty: {},
      });
    });

    it('returns a bare string, a number and null', async () => {
      expectSuccess(await run({ typescript: 'return "plain";', python: 'return "plain"' }), 'plain');
      expectSuccess(await run({ typescript: 'return 0.25;', python: 'return 0.25' }), 0.25);
      expectSuccess(await run({ typescript: 'return null;', python: 'return None' }), null);
    });

    it('gives null for a program that returns nothing', async () => {
      const result = await run({ typescript: 'const unused = 1;', python: 'unused = 1' });
      expectSuccess(result, null);
      expect(result.logs).toEqual([]);
    });

    it('collects logs in order, one entry per line', async () => {
      const result = await run({
        typescript: 'console.log("first"); console.log("second", 2); console.log("multi\\nline"); return "done";',
        python: 'print("first")\nprint("second", 2)\nprint("multi\\nline")\nreturn "done"',
      });
      expectSuccess(result, 'done');
      expect(result.logs).toEqual(['first', 'second 2', 'multi', 'line']);
    });

    it('calls tools with their arguments and keeps logs around the calls in order', async () => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript:
            'console.log("before");\nconst r = await tools.echo({ a: 1, b: [true, null], c: "x" });\nconsole.log("after");\nreturn r;',
          python:
            'print("before")\nr = await tools.echo({"a": 1, "b": [True, None], "c": "x"})\nprint("after")\nreturn r',
        },
        fixture,
      );
      expectSuccess(result, { a: 1, b: [true, null], c: 'x' });
      expect(result.logs).toEqual(['before', 'after']);
      expect(fixture.calls).toEqual([{ member: 'echo', args: { a: 1, b: [true, null], c: 'x' } }]);
    });

    it('raises the error class with the member name when a tool fails', async () => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript: [
            'try {',
            '  await tools.fail({ why: "test" });',
            '  return "no error";',
            '} catch (e) {',
            '  return { isToolError: e instanceof ToolCallError, toolName: e.toolName, message: e.message };',
            '}',
          ].join('\n'),
          python: [
            'try:',
            '    await tools.fail({"why": "test"})',
            '    return "no error"',
            'except ToolCallError as e:',
            '    return {"isToolError": isinstance(e, ToolCallError), "toolName": e.toolName, "message": str(e)}',
          ].join('\n'),
        },
        fixture,
      );
      expectSuccess(result, { isToolError: true, toolName: 'fail', message: 'fixture failure: fail' });
      expect(fixture.calls).toEqual([{ member: 'fail', args: { why: 'test' } }]);
    });

    it("gives the error class the thrown error's code and JSON data, absent when it had none", async () => {
      const fixture = makeFixture();
      const members = ['declined', 'not-found', 'odd-payload', 'throws-text', 'fail'];
      const result = await run(
        {
          typescript: [
            'const seen = [];',
            `for (const name of ${JSON.stringify(members)}) {`,
            '  try {',
            '    await tools[name]({});',
            '  } catch (e) {',
            '    const own = e.data === undefined || (e.data instanceof Object && Object.getPrototypeOf(e.data) === Object.prototype);',
            '    seen.push([e instanceof ToolCallError, e.toolName, e.message, e.code === undefined ? "absent" : e.code, e.data === undefined ? "absent" : e.data, own]);',
            '  }',
            '}',
            'return seen;',
          ].join('\n'),
          python: [
            'seen = []',
            `for name in ${JSON.stringify(members)}:`,
            '    try:',
            '        await tools[name]({})',
            '    except ToolCallError as e:',
            '        seen.append([True, e.toolName, str(e), "absent" if e.code is None else e.code, "absent" if e.data is None else e.data, True])',
            'return seen',
          ].join('\n'),
        },
        fixture,
      );
      expectSuccess(result, [
        [
          true,
          'declined',
          'the card was declined',
          'card_declined',
          { limit: 500, reasons: ['over limit', null], nested: { ok: false } },
          true,
        ],
        [true, 'not-found', 'no such order', 404, 'absent', true],
        [
          true,
          'odd-payload',
          'odd (its data was left out: the data of the error tools["odd-payload"] threw: $.when: a Date object is not a plain object)',
          'absent',
          'absent',
          true,
        ],
        [true, 'throws-text', 'plain text', 'absent', 'absent', true],
        [true, 'fail', 'fixture failure: fail', 'absent', 'absent', true],
      ]);
    });

    it('reports an uncaught tool failure as an exception of the error class', async () => {
      const result = await run({ typescript: 'await tools.fail({});', python: 'await tools.fail({})' });
      expectFailure(result, 'exception');
      expect(result.error?.name).toBe('ToolCallError');
      expect(result.error?.message).toContain('fixture failure: fail');
    });

    it('reports an uncaught exception with its class name and message, keeping earlier logs', async () => {
      const result = await run({
        typescript: 'console.log("before");\nthrow new RangeError("out of range: 7");',
        python: 'print("before")\nraise ValueError("out of range: 7")',
      });
      expectFailure(result, 'exception');
      expect(result.error?.name).toBe(runtime.language === 'typescript' ? 'RangeError' : 'ValueError');
      expect(result.error?.message).toContain('out of range: 7');
      expect(result.logs).toEqual(['before']);
    });

    it("reports a program's own exception class by its name", async () => {
      const result = await run({
        typescript: 'class Oops extends Error {}\nthrow new Oops("custom failure");',
        python: 'class Oops(Exception):\n    pass\nraise Oops("custom failure")',
      });
      expectFailure(result, 'exception');
      expect(result.error?.name).toBe('Oops');
      expect(result.error?.message).toContain('custom failure');
    });

    it('reports a program that does not parse as a SyntaxError exception', async () => {
      const result = await run({ typescript: 'return (1 +;', python: 'return (1 +' });
      expectFailure(result, 'exception');
      expect(result.error?.name).toBe('SyntaxError');
    });

    it('reports a program nested deeper than its language reads as a SyntaxError exception, then runs the next', async () => {
      // Brackets 20,000 deep: more than CPython's parser takes (it stops at 200) and than the TypeScript compiler's
      // recursion reaches; the host that prepares the program must not fail with it.
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const result = await run({ typescript: `return ${deep}.length;`, python: `return len(${deep})` });
      expectFailure(result, 'exception');
      expect(result.error?.name).toBe('SyntaxError');
      expectSuccess(await run({ typescript: 'return 7;', python: 'return 7' }), 7);
    });

    it('reports a call of a member that does not exist as an exception', async () => {
      const fixture = makeFixture();
      const result = await run(
        { typescript: 'return await tools.missing({});', python: 'return await tools.missing({})' },
        fixture,
      );
      expectFailure(result, 'exception');
      expect(fixture.calls).toEqual([]);
    });

    it('calls members with exotic names through subscript', async () => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript: 'return await tools["exotic-name"]({ k: 1 });',
          python: 'return await tools["exotic-name"]({"k": 1})',
        },
        fixture,
      );
      expectSuccess(result, { exotic: { k: 1 } });
      expect(fixture.calls).toEqual([{ member: 'exotic-name', args: { k: 1 } }]);
    });

    it('treats __proto__ as an ordinary key and an ordinary member name', async () => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript: [
            'const args = JSON.parse(\'{"__proto__": {"polluted": true}, "plain": 1}\');',
            'const echoed = await tools.echo(args);',
            'const viaMember = await tools["__proto__"]({ x: 1 });',
            'return { echoed, keys: Object.keys(echoed), viaMember };',
          ].join('\n'),
          python: [
            'echoed = await tools.echo({"__proto__": {"polluted": True}, "plain": 1})',
            'via_member = await tools["__proto__"]({"x": 1})',
            'return {"echoed": echoed, "keys": list(echoed.keys()), "viaMember": via_member}',
          ].join('\n'),
        },
        fixture,
      );
      const echoed = JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}') as JsonValue;
      expectSuccess(result, { echoed, keys: ['__proto__', 'plain'], viaMember: { proto: { x: 1 } } });
      const value = result.value as { echoed: object };
      expect(Object.hasOwn(value.echoed, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(value.echoed)).toBe(Object.prototype);
      const first = fixture.received[0] as object;
      expect(Object.hasOwn(first, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
      expect(fixture.calls.map((call) => call.member)).toEqual(['echo', '__proto__']);
      expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('runs tool calls in parallel', async () => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript: 'return await Promise.all([tools.barrier({ n: 1 }), tools.barrier({ n: 2 })]);',
          python: 'import asyncio\nreturn list(await asyncio.gather(tools.barrier({"n": 1}), tools.barrier({"n": 2})))',
        },
        fixture,
        // A runtime that serializes calls never releases the barrier: fail in seconds, not at the budget.
        { timeoutMs: 10_000 },
      );
      expectSuccess(result, [{ n: 1 }, { n: 2 }]);
    });

    it('refuses arguments that are not lossless JSON before calling the host', async () => {
      const fixture = makeFixture();
      const result = await run(
        {
          typescript: 'try {\n  await tools.echo({ n: NaN });\n  return "sent";\n} catch (e) {\n  return "refused";\n}',
          python:
            'try:\n    await tools.echo({"n": float("nan")})\n    return "sent"\nexcept Exception:\n    return "refused"',
        },
        fixture,
      );
      expectSuccess(result, 'refused');
      expect(fixture.calls).toEqual([]);
    });

    const invalidReturns: [string, Programs, string][] = [
      [
        'NaN inside a list',
        { typescript: 'return { list: [1, NaN] };', python: 'return {"list": [1, float("nan")]}' },
        '$.list[1]',
      ],
      ['-0', { typescript: 'return { zero: -0 };', python: 'return {"zero": -0.0}' }, '$.zero'],
      ['a Map or a set', { typescript: 'return { m: new Map([["a", 1]]) };', python: 'return {"m": {1, 2}}' }, '$.m'],
      [
        'a date',
        { typescript: 'return [new Date(0)];', python: 'import datetime\nreturn [datetime.date(2020, 1, 1)]' },
        '$[0]',
      ],
    ];
    for (const [what, programs, path] of invalidReturns) {
      it(`reports a return value holding ${what} as invalid-output naming ${path}`, async () => {
        const result = await run(programs);
        expectFailure(result, 'invalid-output');
        expect(result.error?.message).toContain(path);
      });
    }

    /**
     * Runs `programs` with `budgetMs`: what the run gave, and when the program called `mark` (the call that
     * shows it got as far as the case needs).
     */
    const runTimed = async (
      programs: Programs,
      budgetMs: number,
      mark: string,
      onMark?: (calledAt: number) => void,
    ): Promise<BudgetTry & { calls: string[] }> => {
      const started = performance.now();
      let calledAfterMs: number | undefined;
      const fixture = makeFixture((member) => {
        if (member !== mark) return;
        const calledAt = performance.now();
        calledAfterMs = calledAt - started;
        onMark?.(calledAt);
      });
      const result = await run(programs, fixture, { timeoutMs: budgetMs });
      return { result, calledAfterMs, calls: fixture.calls.map((call) => call.member) };
    };

    it('stops a busy program at its time budget, then runs the next program cleanly, without what it set', async () => {
      const { result, calls, timing } = await withinBudget((budgetMs) =>
        runTimed(
          {
            typescript: 'globalThis.leftover = 1;\nawait tools.started({});\nwhile (true) {}',
            python: 'global leftover\nleftover = 1\nawait tools.started({})\nwhile True:\n    pass',
          },
          budgetMs,
          'started',
        ),
      );
      expectFailure(result, 'timeout');
      expect(calls, timing).toEqual(['started']);
      await expectCleanNextRun();
    });

    it('stops a program waiting on a tool that never answers at its time budget', async () => {
      const { result, calls, timing } = await withinBudget((budgetMs) =>
        runTimed({ typescript: 'await tools.hang({});', python: 'await tools.hang({})' }, budgetMs, 'hang'),
      );
      expectFailure(result, 'timeout');
      expect(calls, timing).toEqual(['hang']);
      await expectCleanNextRun();
    });

    it('reports a program that finished within its budget as finished, though the host was busy past the budget', async () => {
      // Once the tool's answer is on its way, the host's event loop is held past the deadline (as on a loaded
      // machine): the program's result arrives while it is held, and must win over the timer that is due.
      // Every runtime starts the budget's timer before it sends the program, so the timer is due by the
      // budget after the tool was called: holding the loop until a little past that is enough.
      const { result, budgetMs, timing, tookMs, heldPastCallMs } = await withinBudget((budgetMs) =>
        takingTurns(async () => {
          const started = performance.now();
          let heldPastCallMs = 0;
          let finished = false;
          const tried = await runTimed(
            { typescript: 'await tools.started({});\nreturn 7;', python: 'await tools.started({})\nreturn 7' },
            budgetMs,
            'started',
            (calledAt) => {
              setImmediate(() => {
                // A try already over is not held: the hold would delay the next one.
                if (finished) return;
                holdEventLoop(calledAt + budgetMs + HOLD_PAST_DEADLINE_MS - performance.now());
                heldPastCallMs = performance.now() - calledAt;
              });
            },
          );
          finished = true;
          // The hold waits for the loop's next turn: a result that came back within the same turn (a fast
          // worker) was taken before the host was held, and the try is made again with the next budget.
          const missed =
            tried.calledAfterMs !== undefined && heldPastCallMs === 0
              ? 'its result came back before the host was held'
              : undefined;
          return { ...tried, missed, heldPastCallMs, tookMs: performance.now() - started };
        }),
      );
      // A call after the deadline (left unanswered, or answered too late to matter) held nothing, so the case
      // proves nothing unless the call came within the budget.
      expectSuccess(result, 7, timing);
      expect(heldPastCallMs, timing).toBeGreaterThanOrEqual(budgetMs + HOLD_PAST_DEADLINE_MS);
      expect(tookMs).toBeGreaterThan(budgetMs);
    });

    it('stops a running program when its signal aborts, then runs the next program cleanly', async () => {
      const controller = new AbortController();
      const fixture = makeFixture((member) => member === 'started' && controller.abort());
      const result = await run(
        {
          typescript: 'await tools.started({});\nwhile (true) {}',
          python: 'await tools.started({})\nwhile True:\n    pass',
        },
        fixture,
        { signal: controller.signal },
      );
      expectFailure(result, 'abort');
      expect(fixture.calls.map((call) => call.member)).toEqual(['started']);
      await expectCleanNextRun();
    });

    it('runs nothing when the signal is already aborted', async () => {
      const fixture = makeFixture();
      const result = await run({ typescript: 'await tools.echo({});', python: 'await tools.echo({})' }, fixture, {
        signal: AbortSignal.abort(),
      });
      expectFailure(result, 'abort');
      expect(fixture.calls).toEqual([]);
    });

    it('stops a program whose logs exceed the output cap, then runs the next program cleanly', async () => {
      const result = await run({
        typescript: 'for (let i = 0; i < 50000; i++) console.log("x".repeat(100));\nreturn "finished";',
        python: 'for i in range(50000):\n    print("x" * 100)\nreturn "finished"',
      });
      expectFailure(result, 'output-limit');
      await expectCleanNextRun();
    });

    it('refuses a return value larger than the output cap', async () => {
      const result = await run({ typescript: 'return "x".repeat(5000000);', python: 'return "x" * 5000000' });
      expectFailure(result, 'output-limit');
      await expectCleanNextRun();
    });

    // One byte under, at, and over the cap; `null` returned costs its 4 bytes of JSON.
    const cap = CONFORMANCE_LIMITS.outputLimitBytes;
    for (const [shape, lineChars] of [
      ['short lines (newlines count)', 9],
      ['one long line', cap],
    ] as const) {
      for (const delta of [-1, 0, 1]) {
        const total = cap + delta;
        it(`counts output of ${shape} at cap${delta === 0 ? '' : delta < 0 ? ' - 1' : ' + 1'} (${total} bytes)`, async () => {
          const result = await run(printing(total - 4, Math.min(lineChars, total - 5)));
          if (delta > 0) {
            expectFailure(result, 'output-limit');
          } else {
            expectSuccess(result, null);
            expect(result.logs.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)).toBe(total - 4);
          }
        });
      }
    }

    it('counts bytes a Python program writes straight to fds 1 and 2, exactly up to the cap', async () => {
      // A TypeScript program has no file descriptors to write to.
      if (runtime.language !== 'python') return;
      const writing = (bytes: number): Programs => ({
        typescript: '',
        python: `import os\nhalf = ${Math.floor(bytes / 2)}\nos.write(1, b"x" * half)\nos.write(2, b"y" * (${bytes} - half))\nreturn None`,
      });
      expectSuccess(await run(writing(cap - 5)), null);
      expectSuccess(await run(writing(cap - 4)), null);
      expectFailure(await run(writing(cap - 3)), 'output-limit');
      await expectCleanNextRun();
    });

    it('counts a returned value by its JSON text, exactly up to the cap', async () => {
      // A string of n characters is n + 2 bytes of JSON.
      const at = await run({ typescript: `return "v".repeat(${cap - 2});`, python: `return "v" * ${cap - 2}` });
      expect(at.error).toBeUndefined();
      expect((at.value as string).length).toBe(cap - 2);
      expectFailure(
        await run({ typescript: `return "v".repeat(${cap - 1});`, python: `return "v" * ${cap - 1}` }),
        'output-limit',
      );
      await expectCleanNextRun();
    });

    const unjsonResults: [string, string][] = [
      [
        'getter',
        'the host answered with a value that is not JSON: the result of tools.getter could not be read: the getter exploded',
      ],
      [
        'cyclic',
        'the host answered with a value that is not JSON: the result of tools.cyclic: $.self: a cycle (the value contains itself) is not JSON',
      ],
      [
        'bigint',
        'the host answered with a value that is not JSON: the result of tools.bigint: $.n: a bigint is not JSON',
      ],
    ];
    for (const [member, message] of unjsonResults) {
      it(`raises the error class when a tool answers ${member === 'getter' ? 'with a throwing getter' : `a ${member} value`}`, async () => {
        const fixture = makeFixture();
        const result = await run(
          {
            typescript: `try {\n  return await tools.${member}({});\n} catch (e) {\n  return { caught: e instanceof ToolCallError, toolName: e.toolName, message: e.message };\n}`,
            python: `try:\n    return await tools.${member}({})\nexcept ToolCallError as e:\n    return {"caught": True, "toolName": e.toolName, "message": str(e)}`,
          },
          fixture,
          // A backend that drops the failed answer leaves the program waiting: fail in seconds.
          { timeoutMs: 10_000 },
        );
        expectSuccess(result, { caught: true, toolName: member, message });
      });
    }

    it("reports a missing member as the language's own error, without calling the host", async () => {
      const fixture = makeFixture();
      const result = await run(
        { typescript: 'return await tools.missing({});', python: 'return await tools.missing({})' },
        fixture,
      );
      expectFailure(result, 'exception');
      expect(result.error?.name).toBe(runtime.language === 'typescript' ? 'TypeError' : 'AttributeError');
      expect(fixture.calls).toEqual([]);
    });

    it('refuses a request timeoutMs that is not an integer from 1 to 3,600,000, running nothing', async ({
      expect,
    }) => {
      for (const timeoutMs of [99_999_999_999, 3_600_001, 0, -1, 1.5, Number.NaN, '100' as unknown as number]) {
        const fixture = makeFixture();
        await expect(
          run({ typescript: 'await tools.echo({});', python: 'await tools.echo({})' }, fixture, { timeoutMs }),
          String(timeoutMs),
        ).rejects.toThrow(RuntimeOptionError);
        expect(fixture.calls).toEqual([]);
      }
      await expectCleanNextRun();
    });

    // A string of n characters is n + 2 bytes of JSON, in every language's encoding of it.
    const bridge = CONFORMANCE_LIMITS.bridgeBytes;
    it('carries a call of exactly bridgeBytes; one byte past it ends the run as bridge-limit though caught', async ({
      expect,
    }) => {
      const at = await run({
        typescript: `return (await tools.echo("a".repeat(${bridge - 2}))).length;`,
        python: `return len(await tools.echo("a" * ${bridge - 2}))`,
      });
      expectSuccess(at, bridge - 2);
      const past = await run({
        typescript: `try { await tools.echo("a".repeat(${bridge - 1})); return "sent"; } catch (error) { return error instanceof ToolCallError ? "caught" : "other"; }`,
        python: `try:\n    await tools.echo("a" * ${bridge - 1})\n    return "sent"\nexcept ToolCallError:\n    return "caught"`,
      });
      expectFailure(past, 'bridge-limit');
      expect(past.error?.message).toBe(
        `the arguments of tools.echo are ${(bridge + 1).toLocaleString('en-US')} bytes of JSON, past the ${bridge.toLocaleString('en-US')} a call may carry (bridgeBytes)`,
      );
      await expectCleanNextRun();
    });

    it('refuses a configured timeoutMs out of bounds when the runtime is made', async ({ expect }) => {
      for (const timeoutMs of [99_999_999_999, 0]) {
        await expect(Promise.resolve().then(() => makeRuntime({ ...CONFORMANCE_LIMITS, timeoutMs }))).rejects.toThrow(
          RuntimeOptionError,
        );
      }
    });

    it('keeps no state between runs: globals, patched builtins and bindings start fresh', async () => {
      const first = await run({
        typescript: [
          'globalThis.leftover = "from run 1";',
          'Math.max = () => -1;',
          'try { tools.echo = async () => "hijacked"; } catch {}',
          'return Math.max(1, 2);',
        ].join('\n'),
        python: [
          'import builtins',
          'global leftover',
          'leftover = "from run 1"',
          'builtins.max = lambda *a, **k: -1',
          'try:',
          '    tools.echo = "hijacked"',
          'except Exception:',
          '    pass',
          'return max(1, 2)',
        ].join('\n'),
      });
      expectSuccess(first, -1);
      const second = await run({
        typescript:
          'return { leftover: "leftover" in globalThis ? "present" : "absent", max: Math.max(1, 2), echo: await tools.echo({ ok: true }) };',
        python: [
          'try:',
          '    leftover',
          '    seen = "present"',
          'except NameError:',
          '    seen = "absent"',
          'return {"leftover": seen, "max": max(1, 2), "echo": await tools.echo({"ok": True})}',
        ].join('\n'),
      });
      expectSuccess(second, { leftover: 'absent', max: 2, echo: { ok: true } });
    });

    // Last: it disposes the suite's runtime (starting one of its own would cost a container or a worker boot).
    it('ends a run in progress as worker-exit when the runtime is disposed, and refuses runs after', async ({
      expect,
    }) => {
      const fixture = makeFixture();
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const functions = new Map(fixture.bindings[0]!.functions);
      functions.set('started', async () => {
        started();
        return null;
      });
      const bindings = [{ ...fixture.bindings[0]!, functions }];
      const pending = runtime.run({
        program: {
          typescript: 'await tools.started({});\nawait tools.hang({});',
          python: 'await tools.started({})\nawait tools.hang({})',
        }[runtime.language],
        bindings,
      });
      await running;
      await runtime.dispose();
      const result = await pending;
      expectFailure(result, 'worker-exit');
      await expect(runtime.run({ program: 'return 1', bindings })).rejects.toThrow(/disposed/);
    });
  });
}
