export { CHECKS, runChecks } from './run-checks.js';
export type { Check, CheckInput, Finding, PairCheck, PairRun, SkippedCheck, ViewCheck } from './types.js';
export { viewOfRecord } from './view-of-record.js';
