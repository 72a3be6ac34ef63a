import { afterAll, describe, expect, it } from 'vitest';
import type { RunRequest, RunResult } from '../../../runtimes/seam/types.js';
import { Host } from '../../../test/host-requirements.js';
import { LANGUAGE_PACKS } from '../../languages/index.js';
import type { RuntimeName } from '../../scenario/types.js';
import { Session } from '../../session.js';
import { committedScenarios, runPair } from '../test/run-pair.js';
import type { CheckInput, PairRun } from '../types.js';
import { boundNamesCheck } from './check.js';

const session = new Session();
afterAll(() => session.dispose());

const docker = await Host.with('docker');

type PairInput = CheckInput & { pair: PairRun };
const inputs = new Map<RuntimeName, PairInput>();
async function exoticNames(runtime: RuntimeName): Promise<PairInput> {
  if (!inputs.has(runtime)) {
    const scenario = (await committedScenarios()).find((s) => s.name === 'exotic-names')!;
    inputs.set(runtime, await runPair(scenario, runtime, session));
  }
  return inputs.get(runtime)!;
}

type Run = (request: RunRequest) => Promise<RunResult>;

/** A runtime that hands every program one more namespace than it was asked to. */
const extraBinding = (request: RunRequest, run: Run) =>
  run({ ...request, bindings: [...request.bindings, { name: 'debug', functions: new Map() }] });

/** A runtime that runs something of its own before each program. */
const prelude = (code: string) => (request: RunRequest, run: Run) =>
  run({ ...request, program: `${code}\n${request.program}` });

const messagesOf = async (input: PairInput, check = boundNamesCheck()) =>
  (await check.run(input)).map((f) => f.message);

const boundExactly = async (runtime: RuntimeName) => expect(await messagesOf(await exoticNames(runtime))).toEqual([]);

describe('bound names', () => {
  it.each(['typescript', 'python', 'pyodide'] as const)(
    'exactly tools and ToolCallError are bound on %s',
    { timeout: 180_000 },
    boundExactly,
  );
  docker.it('exactly tools and ToolCallError are bound on python-container', { timeout: 180_000 }, () =>
    boundExactly('python-container'),
  );

  it('reads the declared names out of both SDKs', { timeout: 120_000 }, async () => {
    const declared = async (runtime: 'python' | 'typescript') =>
      LANGUAGE_PACKS[runtime].probe.declared(
        (await exoticNames(runtime)).pair.files.get(`tools-sdk.${runtime === 'python' ? 'py' : 'ts'}`)!,
        session,
      );
    // The four tools take one structure and return another: each is written once, the arguments named after
    // their one field, the result after the first tool (the tools' names share no last word). The error class is
    // bound, so the Python probe does not look it up.
    expect(await declared('python')).toEqual(['TextArgs', 'Tool2faVerifyOutput', 'Tools']);
    expect(await declared('typescript')).toEqual(['ToolCallError', 'TextArgs', 'Tool2faVerifyOutput', 'tools']);
  });

  it.each(['python', 'pyodide'] as const)(
    'fails a %s runtime that binds an extra namespace',
    { timeout: 120_000 },
    async (runtime) => {
      expect(await messagesOf(await exoticNames(runtime), boundNamesCheck({ wrap: extraBinding }))).toEqual([
        `globals beyond tools and ToolCallError are bound: debug on the ${runtime} runtime`,
      ]);
    },
  );

  it('fails a python runtime that leaks an SDK class into builtins', { timeout: 120_000 }, async () => {
    const leak = prelude('import builtins\nbuiltins.Tool2faVerifyOutput = dict');
    expect(await messagesOf(await exoticNames('python'), boundNamesCheck({ wrap: leak }))).toEqual([
      'SDK classes that must raise NameError resolve: Tool2faVerifyOutput (bound) on the python runtime',
    ]);
  });

  it('fails a typescript runtime that passes an extra value or sets a global', { timeout: 120_000 }, async () => {
    const input = await exoticNames('typescript');
    expect(await messagesOf(input, boundNamesCheck({ wrap: extraBinding }))).toEqual([
      'the program receives 3 bound values (tools, ToolCallError, object); expected tools and ToolCallError only on the typescript runtime',
    ]);
    const leak = prelude('(globalThis as any).TextArgs = {}; (globalThis as any).inspector = 1;');
    expect(await messagesOf(input, boundNamesCheck({ wrap: leak }))).toEqual([
      'SDK type names reachable as values: TextArgs (typeof object) on the typescript runtime',
      'globals beyond the JavaScript and Node built-ins: TextArgs, inspector on the typescript runtime',
    ]);
  });
});
