import { afterAll, describe, expect, it } from 'vitest';
import type { Language } from '../../../runtimes/seam/types.js';
import type { Scenario } from '../../scenario/types.js';
import { Session } from '../../session.js';
import { committedScenarios, runPair } from '../test/run-pair.js';
import type { CheckInput, PairRun } from '../types.js';
import { typecheckProgramsCheck } from './check.js';

type PairInput = CheckInput & { pair: PairRun };

/** The input with the pair's scenario replaced (its programs are what the check reads of it). */
const withScenario = (input: PairInput, scenario: Scenario): PairInput => ({
  ...input,
  pair: { ...input.pair, scenario },
});

/** The input with the SDK block of the first request replaced by `sdk`. */
const withSdk = (input: PairInput, sdk: string): PairInput => ({
  ...input,
  view: {
    ...input.view,
    requests: input.view.requests.map((request, i) =>
      i === 0 ? { ...request, sdkSection: `\`\`\`python\n${sdk}\`\`\`\n` } : request,
    ),
  },
});

const session = new Session();
afterAll(() => session.dispose());

/**
 * The check reads the programs of the scenario's script and the SDK of the run's first request, neither of which
 * depends on the time budget: a scenario with a budget of its own (timeout.yml, whose first program busy-waits
 * it out, 1.5 CPU-s per language) runs with a short one and is checked as committed.
 */
const SHORT_BUDGET_MS = 200;
const shortBudget = (scenario: Scenario): Scenario =>
  scenario.runtimeConfig.timeoutMs === undefined
    ? scenario
    : { ...scenario, runtimeConfig: { ...scenario.runtimeConfig, timeoutMs: SHORT_BUDGET_MS } };

const runs = new Map<string, PairInput>();
async function committed(language: Language): Promise<PairInput[]> {
  const inputs: PairInput[] = [];
  for (const scenario of await committedScenarios()) {
    const key = `${scenario.name}/${language}`;
    if (!runs.has(key))
      runs.set(
        key,
        withScenario(
          await runPair(shortBudget(scenario), language === 'python' ? 'python' : 'typescript', session),
          scenario,
        ),
      );
    inputs.push(runs.get(key)!);
  }
  return inputs;
}

/** The committed scenario `name`'s run in `language`. */
async function committedInput(language: Language, name: string): Promise<PairInput> {
  return (await committed(language)).find((input) => input.pair.scenario.name === name)!;
}

/** The scenario with the program of its `call`-th run_code step in `language` replaced. */
function withProgram(scenario: Scenario, call: number, language: Language, code: string): Scenario {
  let seen = 0;
  return {
    ...scenario,
    script: scenario.script.map((step) => {
      if (step.kind !== 'assistant' || ++seen !== call) return step;
      return { ...step, runCode: { ...step.runCode, programs: { ...step.runCode.programs, [language]: code } } };
    }),
  };
}

const errorsOf = async (input: CheckInput) =>
  (await typecheckProgramsCheck.run(input)).filter((f) => f.severity === 'error').map((f) => f.message);

describe.each(['typescript', 'python'] as const)('type-checked %s programs', (language) => {
  it('pass on every committed scenario', { timeout: 240_000 }, async () => {
    for (const input of await committed(language))
      expect([input.pair.scenario.name, await errorsOf(input)]).toEqual([input.pair.scenario.name, []]);
  });

  it('notes, without failing, a subscript call the stubs leave untyped by design', { timeout: 120_000 }, async () => {
    const input = await committedInput(language, 'unicode-past-floor');
    const findings = await typecheckProgramsCheck.run(input);
    expect(findings).toEqual(
      language === 'typescript'
        ? []
        : [
            {
              check: 'typecheck-programs',
              severity: 'note',
              message: expect.stringMatching(
                /run_code call 1 \(python\), line 1, column 15 \(not checked\): "__getitem__" method not defined on type "Tools"/,
              ),
            },
          ],
    );
  });

  it('fail a program that uses a wrong field name, at its own line and column', { timeout: 120_000 }, async () => {
    const input = await committedInput(language, 'nested-reads');
    const code =
      language === 'typescript'
        ? "const forecast = await tools.get_forecast({ city: 'Lisbon', days: 3 });\nreturn forecast.days.map((d) => d.temperature.hgh);\n"
        : 'forecast = await tools.get_forecast({"city": "Lisbon", "days": 3})\nreturn [d["temperature"]["hgh"] for d in forecast["days"]]\n';
    const scenario = withProgram(input.pair.scenario, 2, language, code);
    const step = scenario.script.filter((s) => s.kind === 'assistant')[1]!;
    const errors = await errorsOf(withScenario(input, scenario));
    const where = `scenarios/nested-reads.yml:${step.line} run_code call 2 (${language}), line 2`;
    expect(errors).toEqual([
      language === 'typescript'
        ? `tsc: ${where}, column 47: Property 'hgh' does not exist on type '{ high: number; low: number; }'. Did you mean 'high'?`
        : `pyright: ${where}, column 9: Could not access item in TypedDict; "hgh" is not a defined key in "GetForecastTemperature"`,
    ]);
  });

  it('fail a program that passes a wrong argument name', { timeout: 120_000 }, async () => {
    const input = await committedInput(language, 'nested-reads');
    const code =
      language === 'typescript'
        ? "return await tools.get_forecast({ city: 'Lisbon', dayz: 3 });\n"
        : 'return await tools.get_forecast({"city": "Lisbon", "dayz": 3})\n';
    const errors = await errorsOf(withScenario(input, withProgram(input.pair.scenario, 1, language, code)));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      language === 'typescript'
        ? /line 1, column 51: Object literal may only specify known properties, and 'dayz' does not exist/
        : /line 1, column 52: Argument of type .*"dayz" is an undefined item in type "GetForecastArgs"/,
    );
  });

  it('fail a program that names an SDK type as a value', { timeout: 120_000 }, async () => {
    const input = await committedInput(language, 'nested-reads');
    const code = language === 'typescript' ? 'return GetForecastArgs;\n' : 'return GetForecastArgs\n';
    const errors = await errorsOf(withScenario(input, withProgram(input.pair.scenario, 1, language, code)));
    expect(errors).toEqual([
      expect.stringMatching(
        language === 'typescript'
          ? /line 1, column 8: 'GetForecastArgs' only refers to a type/
          : /line 1, column 8: "GetForecastArgs" is not defined/,
      ),
    ]);
  });
});

describe('pyright checks for the floor', () => {
  it('fails a program using syntax the floor lacks (`match` at 3.9) at its own line, and passes it at 3.10', {
    timeout: 120_000,
  }, async () => {
    const input = await committedInput('python', 'nested-reads');
    const code =
      'forecast = await tools.get_forecast({"city": "Lisbon", "days": 3})\nmatch forecast["days"]:\n    case []:\n        return None\n    case _:\n        return forecast["days"][0]\n';
    const scenario = withProgram(input.pair.scenario, 1, 'python', code);
    const errors = await errorsOf({ ...withScenario(input, scenario), floor: '3.9' });
    expect(errors).toEqual([
      expect.stringMatching(
        /run_code call 1 \(python\), line 2, column 1: Match statements require Python 3\.10 or newer/,
      ),
    ]);
    expect(await errorsOf({ ...withScenario(input, scenario), floor: '3.10' })).toEqual([]);
  });

  it('fails stubs using what the floor lacks at their own line: `NotRequired` and `|` at 3.9', {
    timeout: 120_000,
  }, async () => {
    const input = await committedInput('python', 'nested-reads');
    const sdk =
      'from typing import NotRequired, TypedDict\n\nclass A(TypedDict):\n    x: NotRequired[int | str]\n\nclass Tools:\n    pass\n\nclass ToolCallError(Exception):\n    pass\n\ntools: Tools\n';
    const errors = await errorsOf({ ...withSdk(input, sdk), floor: '3.9' });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^tools-sdk\.py does not type-check \(pyright for Python 3\.9\), line 1, column 20: "NotRequired" is unknown import symbol/,
        ),
        expect.stringMatching(
          /^tools-sdk\.py does not type-check \(pyright for Python 3\.9\), line 4, column 24: Alternative syntax for unions requires Python 3\.10 or newer/,
        ),
      ]),
    );
  });

  it("reads stubs that import nothing with typing's names, as the stub checks run them", {
    timeout: 120_000,
  }, async () => {
    const input = await committedInput('python', 'nested-reads');
    const body =
      'class A(TypedDict):\n    x: NotRequired[int]\n\nclass Tools:\n    async def get_forecast(self, args: Any) -> A: ...\n\nclass ToolCallError(Exception):\n    pass\n\ntools: Tools\n';
    // What pyright says of the stubs themselves (the scenario's programs call tools these stubs lack).
    const withStubs = async (sdk: string, floor: '3.9' | '3.11') =>
      (await errorsOf({ ...withSdk(input, sdk), floor })).filter((message) =>
        message.startsWith('tools-sdk.py does not type-check'),
      );
    expect(await withStubs(body, '3.11')).toEqual([]);
    // The typing of 3.9 has no NotRequired; a block that imports runs as written, a name it forgot unbound.
    expect(await withStubs(body, '3.9')).toEqual([
      expect.stringMatching(
        /^tools-sdk\.py does not type-check \(pyright for Python 3\.9\), line 2, column 8: "NotRequired" is not defined/,
      ),
    ]);
    expect(await withStubs(`from typing import Any\n${body}`, '3.11')).toEqual([
      expect.stringMatching(
        /^tools-sdk\.py does not type-check \(pyright for Python 3\.11\), line 2, column 9: "TypedDict" is not defined/,
      ),
      expect.stringMatching(
        /^tools-sdk\.py does not type-check \(pyright for Python 3\.11\), line 3, column 8: "NotRequired" is not defined/,
      ),
    ]);
  });
});
