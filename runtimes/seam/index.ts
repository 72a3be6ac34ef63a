// The runtime seam: the types a code runtime implements and the helpers a runtime plugin is built with.
// The conformance suite every runtime must pass is its own entry point (`concord/conformance`, needs vitest).

export { parseJsonValue, toJsonText } from './json.js';
export { observeRuns, type RunObserver } from './observe.js';
export { runtimePlugin } from './plugin.js';
export { disposeSharedRuntimes, RUNTIME_POOL_SERVICE, RuntimePool } from './pool.js';
export type * from './types.js';
