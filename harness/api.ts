// concord's programmatic API: run the gate from a script, check a model-visible request from a test, and the types a
// gated backend implements.

export * from '../contract/index.js';
export { type CheckOptions, type CheckResult, checkRequest, checkSdk, type SdkInput } from './check-command/check.js';
export type { Finding } from './findings.js';
export { type GateOptions, type GateResult, runGate } from './gate/gate.js';
export { findProjectRoot, openProject, type Project } from './project/root.js';
export type { PairResult } from './report/outcome.js';
export { Session } from './session.js';
export type { UpdateMode } from './snapshot/decide.js';
export { type Place, UserError } from './user-error.js';
