// concord's programmatic API: run the gate from a script, and the types a gated backend implements.
export { runGate, type GateOptions, type GateResult } from './gate/gate.js';
export type { UpdateMode } from './snapshot/decide.js';
export { openProject, findProjectRoot, type Project } from './project/root.js';
export { UserError, type Place } from './user-error.js';
export type { PairResult } from './report/outcome.js';
export * from '../contract/index.js';
