import { defineConfig } from 'vitest/config';
import DurationsReporter from './test/durations-reporter.js';
import LongestFirst from './test/longest-first.js';

export default defineConfig({
  test: {
    include: ['{contract,harness,codemode,runtimes,scenarios,scripts}/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    setupFiles: ['./test/no-leftovers.ts', './test/cpu-per-file.ts'],
    // The suite must run on 2 cores: runtimes spawn interpreters and workers of their own.
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
