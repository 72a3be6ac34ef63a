import { dirname, relative } from 'node:path';
import { MissingPackageError } from '../../../runtimes/seam/optional-package.js';
import type { Language } from '../../../runtimes/seam/types.js';
import { compilerOutOfStack } from '../../../runtimes/seam/typescript.js';
import { type Finding, TYPECHECK_PROGRAMS } from '../../findings.js';
import { LANGUAGE_PACKS, type ProgramDiagnostic, type ScriptedProgram } from '../../languages/index.js';
import type { Scenario } from '../../scenario/types.js';
import { firstSdkBlock } from '../stub-validity.js';
import type { CheckInput, ViewCheck } from '../types.js';

/** The programs the scenario's script gives `run_code` in one language, numbered by call. */
export function scriptedPrograms(scenario: Scenario, language: Language): ScriptedProgram[] {
  return scenario.script
    .flatMap((step) => (step.kind === 'assistant' ? [step] : []))
    .map((step, i) => ({ call: i + 1, line: step.line, code: step.runCode.programs[language] ?? '' }));
}

/**
 * The SDK the model read, type-checked by its language's checker (TypeScript: the compiler API; Python: pyright at
 * the floor), with every scripted program of the scenario in a gate: a checker's error fails with its message at the
 * program's own line and column, or at the SDK's.
 */
export const typecheckProgramsCheck: ViewCheck = {
  id: TYPECHECK_PROGRAMS,
  async run({ view, pair, floor, session }: CheckInput): Promise<Finding[]> {
    const sdk = firstSdkBlock({ view });
    if (sdk === undefined) return [];
    const checker = LANGUAGE_PACKS[view.language].typeChecker;
    const programs = pair === undefined ? [] : scriptedPrograms(pair.scenario, view.language);
    // Scenarios and their recordings live in <root>/scenarios/: name the file as the project knows it.
    const script = pair === undefined ? undefined : (pair.scenario.scriptFile ?? pair.scenario.file);
    const file = script === undefined ? '' : relative(dirname(dirname(script)), script);
    const calls = `${file} run_code calls ${programs.map((p) => p.call).join(', ')} (${view.language})`;
    let diagnostics: ProgramDiagnostic[];
    try {
      diagnostics = await checker.check(session, sdk, programs, floor);
    } catch (error) {
      // Said once for every check that meets it (see runChecks).
      if (compilerOutOfStack(error)) throw error;
      // An optional checker that is not installed skips the check, saying so and how to install it; the
      // summary then reports the run as not checked in full, never as all green.
      if (error instanceof MissingPackageError) {
        const what = programs.length === 0 ? view.sdkName : calls;
        return [
          {
            check: TYPECHECK_PROGRAMS,
            severity: 'note',
            skipped: error.message,
            message: `${checker.name}: ${what} are not type-checked: ${error.message}`,
          },
        ];
      }
      // A checker that did not answer has not passed the programs: the gate fails rather than skip them.
      const what = programs.length === 0 ? view.sdkName : calls;
      return [
        {
          check: TYPECHECK_PROGRAMS,
          severity: 'error',
          message: `${checker.name}: ${what} are unchecked: ${(error as Error).message}`,
        },
      ];
    }
    return diagnostics.map(({ program, severity, line, column, message }) => {
      const text = message.replace(/\n\s*/g, '; ');
      const at = line === undefined ? '' : `, line ${line}, column ${column}`;
      if (program === undefined)
        return {
          check: TYPECHECK_PROGRAMS,
          severity,
          message: `${view.sdkName} does not type-check (${checker.describe(floor)})${at}: ${text}`,
        };
      const what = severity === 'note' ? ' (not checked)' : '';
      return {
        check: TYPECHECK_PROGRAMS,
        severity,
        message: `${checker.name}: ${file}:${program.line} run_code call ${program.call} (${view.language})${at}${what}: ${text}`,
      };
    });
  },
};
