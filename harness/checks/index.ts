import { boundNames } from './bound-names.js';
import { expectationsCheck } from './expectations.js';
import { languageAgreementCheck } from './language-agreement.js';
import { sdkNamesCheck } from './sdk-names.js';
import { stubValidity } from './stub-validity.js';
import { typecheckProgramsCheck } from './typecheck-programs.js';
import type { Check } from './types.js';

/** Every check the gate runs on each scenario × runtime, in order. Add new checks here. */
export const CHECKS: readonly Check[] = [expectationsCheck, stubValidity, languageAgreementCheck, sdkNamesCheck, boundNames, typecheckProgramsCheck];

export type { Check, CheckInput, Finding } from './types.js';
