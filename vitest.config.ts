import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.js';

export default defineConfig({
  test: {
    include: ['{contract,harness,codemode,runtimes,scenarios,scripts}/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    // The suite must run on 2 cores: runtimes spawn interpreters and workers of their own.
    maxWorkers: 2,
    // Longest files first, so neither worker ends the run alone on a long file.
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
