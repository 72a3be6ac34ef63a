import { defineConfig } from 'vitest/config';
import DurationsReporter from './test/durations-reporter.js';
import LongestFirst from './test/longest-first.js';

/** Where test files live. */
const FOLDERS = '{contract,harness,codemode,runtimes,scenarios,scripts,test}';

export default defineConfig({
  test: {
    setupFiles: ['./test/no-leftovers.ts', './test/cpu-per-file.ts'],
    // The suite must run on 2 cores: runtimes spawn interpreters and workers of their own. A third worker was
    // measured slower on 2 cores: the processes the files start already keep the cores busy, and a third file
    // beside them only adds contention and a third module graph.
    maxWorkers: 2,
    // Each worker runs file after file in one process: a fresh process and module graph per file cost about
    // 1 CPU-s each. Nothing concord keeps may outlive a command's session, so a file cannot see another's state;
    // tests that change process.env put it back.
    isolate: false,
    // Longest files first, so neither worker ends the run alone on a long file.
    sequence: { sequencer: LongestFirst },
    // Silent unless CONCORD_TEST_DURATIONS names a file: then it writes what the sequencer orders by.
    reporters: ['default', new DurationsReporter()],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two tiers (CONTRIBUTING.md): `npm test` runs the unit tier, unit and in-process integration tests;
    // `npm run test:e2e` the end-to-end tier, `*.e2e.test.ts`: what starts concord's command line, installs the
    // packed tarball, needs Docker or a browser, or runs the workflow.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [`${FOLDERS}/**/*.test.ts`],
          exclude: ['**/*.e2e.test.ts', '**/node_modules/**'],
          globalSetup: ['./vitest.global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [`${FOLDERS}/**/*.e2e.test.ts`],
          globalSetup: ['./vitest.global-setup.ts', './vitest.e2e-setup.ts'],
        },
      },
    ],
  },
});
