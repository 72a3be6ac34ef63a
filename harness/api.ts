// concord's programmatic API: run the gate from a script, and the types a gated backend implements.

export * from '../contract/index.js';
export { type GateOptions, type GateResult, runGate } from './gate/gate.js';
export { findProjectRoot, openProject, type Project } from './project/root.js';
export type { PairResult } from './report/outcome.js';
export type { UpdateMode } from './snapshot/decide.js';
export { type Place, UserError } from './user-error.js';
