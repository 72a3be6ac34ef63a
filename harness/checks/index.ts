import { compilerOutOfStack } from '../../runtimes/seam/typescript.js';
import { boundNames } from './bound-names/check.js';
import { committedSecretsCheck } from './committed-secrets.js';
import { expectationsCheck } from './expectations.js';
import { languageAgreementCheck } from './language/check.js';
import { sdkNamesCheck } from './sdk-names/check.js';
import { stubValidity } from './stub-validity.js';
import { typecheckProgramsCheck } from './typecheck/check.js';
import type { Check, CheckInput, Finding } from './types.js';
import { NESTS_TOO_DEEPLY } from './typescript-compiler.js';

/** Every check the gate runs on each scenario × runtime, in order. Add new checks here. */
export const CHECKS: readonly Check[] = [
  expectationsCheck,
  committedSecretsCheck,
  stubValidity,
  languageAgreementCheck,
  sdkNamesCheck,
  boundNames,
  typecheckProgramsCheck,
];

/**
 * Runs `checks` on one scenario × runtime all at once (the interpreters of stub validity, pyright and the
 * bound-names probe wait on different processes) and returns their findings in the order of `checks`. A
 * check that throws is a finding of its own, never the end of the others.
 */
export async function runChecks(input: CheckInput, checks: readonly Check[] = CHECKS): Promise<Finding[]> {
  const each = await Promise.all(
    checks.map(async (check): Promise<Finding[]> => {
      try {
        return await check.run(input);
      } catch (error) {
        const why = compilerOutOfStack(error) ? `the SDK or a program ${NESTS_TOO_DEEPLY}` : (error as Error).message;
        return [{ check: check.id, severity: 'error', message: `the check itself failed: ${why}` }];
      }
    }),
  );
  return each.flat();
}

export type { Check, CheckInput, Finding } from './types.js';
