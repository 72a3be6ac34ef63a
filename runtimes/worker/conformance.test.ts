import { describeConformance } from '../seam/conformance.js';
import { createWorkerRuntime } from './runtime.js';

describeConformance('typescript worker', (limits) => createWorkerRuntime(limits));
