import type { RunError } from './types.js';

/** The sentences every backend uses for the endings the host decides, so one ending reads the same everywhere. */
export const runMessages = {
  abortedBeforeStart: (): RunError => ({ kind: 'abort', message: 'the run was aborted before it started' }),
  aborted: (): RunError => ({ kind: 'abort', message: 'the run was aborted' }),
  timeout: (timeoutMs: number): RunError => ({
    kind: 'timeout',
    message: `the program ran longer than its time budget of ${timeoutMs} ms`,
  }),
  outputLimit: (limitBytes: number): RunError => ({
    kind: 'output-limit',
    message: `the program's output (printed lines and the returned value) exceeded the limit of ${limitBytes} bytes`,
  }),
  memoryLimit: (memoryMb: number): RunError => ({
    kind: 'worker-exit',
    message: `the run's processes together used more than its memory budget of ${memoryMb} MB (memoryMb); the run was ended`,
  }),
  diskLimit: (diskMb: number): RunError => ({
    kind: 'worker-exit',
    message: `the run kept more than ${diskMb} MB in its folder (diskMb); the run was ended`,
  }),
  disposed: (runtime: string): Error => new Error(`concord: the ${runtime} runtime has been disposed`),
};
