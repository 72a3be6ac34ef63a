import { defineConfig } from 'vitest/config';
import DurationsReporter from './test/durations-reporter.js';
import LongestFirst from './test/longest-first.js';

export default defineConfig({
  test: {
    include: ['{contract,harness,codemode,runtimes,scenarios,scripts}/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    setupFiles: ['./test/no-leftovers.ts', './test/cpu-per-file.ts'],
    // The suite must run on 2 cores: runtimes spawn interpreters and workers of their own. A third worker was
    // measured slower on 2 cores (633 s and 1041 CPU-s; two workers the same day: 548–601 s and 866–944 CPU-s):
    // the processes the files start already keep the cores busy, and a third file beside them only adds
    // contention and a third module graph.
    maxWorkers: 2,
    // Each worker runs file after file in one process: a fresh process and module graph per file cost about
    // 1 CPU-s each (117 small files: 507 → 389 CPU-s). Nothing concord keeps may outlive a command's session,
    // so a file cannot see another's state; tests that change process.env put it back.
    isolate: false,
    // Longest files first, so neither worker ends the run alone on a long file.
    sequence: { sequencer: LongestFirst },
    // Silent unless CONCORD_TEST_DURATIONS names a file: then it writes what the sequencer orders by.
    reporters: ['default', new DurationsReporter()],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
