import { describeConformance } from '../seam/conformance.js';
import { runSnapshots } from '../test/pyodide-snapshots.js';
import { createPyodideRuntime } from './runtime.js';

// The full suite runs on the default release; the other releases get a smoke set in versions.e2e.test.ts
// (each boot costs seconds, and the suite replaces the worker several times: each boots from the run's
// memory snapshot, as a gate's do).
const snapshots = runSnapshots();
describeConformance('pyodide (default release)', (limits) => createPyodideRuntime(limits, { snapshots }));
