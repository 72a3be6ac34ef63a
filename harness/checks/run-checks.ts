import { compilerOutOfStack } from '../../runtimes/seam/typescript.js';
import { TYPECHECK_PROGRAMS } from '../findings.js';
import { NESTS_TOO_DEEPLY } from '../languages/index.js';
import { boundNames } from './bound-names/check.js';
import { committedSecretsCheck } from './committed-secrets.js';
import { expectationsCheck } from './expectations.js';
import { languageAgreementCheck } from './language/check.js';
import { sdkNamesCheck } from './sdk-names/check.js';
import { rendererFloorCheck, stubValidity } from './stub-validity.js';
import { typecheckProgramsCheck } from './typecheck/check.js';
import type { Check, CheckInput, Finding, PairRun, SkippedCheck } from './types.js';

/**
 * Every check concord runs on what a model was shown, in order: the gate runs them on each scenario × runtime,
 * `concord check`, `checkRequest`, `checkSdk` and the matcher on what a team's tests keep. Add new checks here.
 */
export const CHECKS: readonly Check[] = [
  expectationsCheck,
  committedSecretsCheck,
  stubValidity,
  rendererFloorCheck,
  languageAgreementCheck,
  sdkNamesCheck,
  boundNames,
  typecheckProgramsCheck,
];

/** What running the checks on one input gave: the findings in the order of the checks, and the checks left out. */
export interface ChecksOutcome {
  findings: Finding[];
  /** The checks that read what only a gate's pair has, when the input has none. */
  skipped: SkippedCheck[];
}

/**
 * Runs `checks` on one input all at once (the interpreters of stub validity, pyright and the bound-names probe wait
 * on different processes) and returns their findings in the order of `checks`. A check that throws is a finding of its
 * own, never the end of the others; an SDK the compiler runs out of stack on is said once, whichever checks met it.
 */
export async function runChecks(input: CheckInput, checks: readonly Check[] = CHECKS): Promise<ChecksOutcome> {
  const { pair } = input;
  const skipped: SkippedCheck[] = [];
  const each = await Promise.all(
    checks.map(async (check): Promise<Finding[] | 'too deep'> => {
      if (check.needsPair !== undefined && pair === undefined) {
        skipped.push({ check: check.id, why: check.needsPair });
        return [];
      }
      try {
        return await (check.needsPair === undefined
          ? check.run(input)
          : check.run({ ...input, pair: pair as PairRun }));
      } catch (error) {
        if (compilerOutOfStack(error)) return 'too deep';
        return [
          { check: check.id, severity: 'error', message: `the check itself failed: ${(error as Error).message}` },
        ];
      }
    }),
  );
  const findings: Finding[] = [];
  let deep = false;
  for (const found of each) {
    if (found !== 'too deep') findings.push(...found);
    else if (!deep) {
      deep = true;
      // The compiler's limit, whichever check met it first: said once, as the type check's.
      const what = `${input.view.sdkName}${pair === undefined ? '' : ' or a program'}`;
      findings.push({ check: TYPECHECK_PROGRAMS, severity: 'error', message: `${what} ${NESTS_TOO_DEEPLY}` });
    }
  }
  return { findings, skipped };
}
