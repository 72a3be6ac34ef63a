import { createHash } from 'node:crypto';
import { dirname, relative } from 'node:path';
import { DEFAULT_PYTHON_FLOOR, type PythonVersion } from '../../../codemode/index.js';
import { MissingPackageError } from '../../../runtimes/seam/optional-package.js';
import type { Language } from '../../../runtimes/seam/types.js';
import type { Scenario } from '../../scenario/types.js';
import type { Session } from '../../session.js';
import { SDK_FILE } from '../../snapshot/transcript.js';
import type { Check, CheckInput, Finding } from '../types.js';
import { checkWithTsc } from './cached-tsc.js';
import { typecheckPython } from './python.js';
import type { ProgramDiagnostic, ScriptedProgram } from './types.js';

const ID = 'typecheck-programs';

/** The programs the scenario's script gives `run_code` in one language, numbered by call. */
export function scriptedPrograms(scenario: Scenario, language: Language): ScriptedProgram[] {
  return scenario.script
    .flatMap((step) => (step.kind === 'assistant' ? [step] : []))
    .map((step, i) => ({ call: i + 1, line: step.line, code: step.runCode.programs[language] ?? '' }));
}

/**
 * pyright checks for the floor itself: a program or stub using what the floor lacks fails at its line. The
 * Python SDK is the same on every Python runtime of a scenario: pyright checks it once per session.
 */
function checkPython(
  session: Session,
  scenario: Scenario,
  sdk: string,
  programs: ScriptedProgram[],
  version: PythonVersion,
): Promise<ProgramDiagnostic[]> {
  const key = createHash('sha256')
    .update(JSON.stringify([scenario.file, version, sdk, programs]))
    .digest('hex');
  return session.once(`typecheck-programs ${key}`, () => typecheckPython(session, sdk, programs, version));
}

/**
 * Every scripted program of the scenario, in the runtime's language, type-checked against the SDK the
 * model read in this run: TypeScript with the compiler API, Python with pyright. A checker's error fails
 * the gate with its message at the program's own line and column.
 */
export const typecheckProgramsCheck: Check = {
  id: ID,
  async run({ scenario, runtime, files, floor = DEFAULT_PYTHON_FLOOR, session }: CheckInput): Promise<Finding[]> {
    const language = runtime.language;
    const sdk = files.get(SDK_FILE[language]);
    const programs = scriptedPrograms(scenario, language);
    if (sdk === undefined || programs.length === 0) return [];
    // Scenarios and their recordings live in <root>/scenarios/: name the file as the project knows it.
    const script = scenario.scriptFile ?? scenario.file;
    const file = relative(dirname(dirname(script)), script);
    const checker = language === 'typescript' ? 'tsc' : 'pyright';
    let diagnostics: ProgramDiagnostic[];
    try {
      diagnostics =
        language === 'typescript'
          ? await checkWithTsc(session, sdk, programs)
          : await checkPython(session, scenario, sdk, programs, floor);
    } catch (error) {
      // An optional checker that is not installed skips the check, saying so and how to install it; the
      // summary then reports the run as not checked in full, never as all green.
      if (error instanceof MissingPackageError) {
        return [
          {
            check: ID,
            severity: 'note',
            skipped: error.message,
            message: `${checker}: ${file} run_code calls ${programs.map((p) => p.call).join(', ')} (${language}) are not type-checked: ${error.message}`,
          },
        ];
      }
      // A checker that did not answer has not passed the programs: the gate fails rather than skip them.
      const calls = programs.map((p) => p.call).join(', ');
      return [
        {
          check: ID,
          severity: 'error',
          message: `${checker}: ${file} run_code calls ${calls} (${language}) are unchecked: ${(error as Error).message}`,
        },
      ];
    }
    return diagnostics.map(({ program, severity, line, column, message }) => {
      const text = message.replace(/\n\s*/g, '; ');
      const at = line === undefined ? '' : `, line ${line}, column ${column}`;
      if (program === undefined && language === 'typescript')
        return { check: ID, severity, message: `${checker}: ${SDK_FILE[language]} itself does not compile: ${text}` };
      if (program === undefined)
        return {
          check: ID,
          severity,
          message: `${checker}: ${SDK_FILE[language]}${at} (for Python ${floor}): ${text}`,
        };
      const what = severity === 'note' ? ' (not checked)' : '';
      return {
        check: ID,
        severity,
        message: `${checker}: ${file}:${program.line} run_code call ${program.call} (${language})${at}${what}: ${text}`,
      };
    });
  },
};
