import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contract,harness,codemode,runtimes,scenarios,scripts}/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    // The suite must run on 2 cores: runtimes spawn interpreters and workers of their own.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
