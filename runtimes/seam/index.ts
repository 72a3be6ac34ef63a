// The runtime seam: the types a code runtime implements and the helpers a runtime plugin is built with.
// The conformance suite every runtime must pass is its own entry point (`concord/conformance`, needs vitest).
export type * from './types.js';
export { runtimePlugin } from './plugin.js';
export { RuntimePool, RUNTIME_POOL_SERVICE, disposeSharedRuntimes } from './pool.js';
export { parseJsonValue, toJsonText } from './json.js';
export { observeRuns, type RunObserver } from './observe.js';
