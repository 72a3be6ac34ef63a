import { Command } from 'commander';
import { registerGate } from './commands/gate.js';
import { registerInit } from './commands/init.js';
import { registerMerge } from './commands/merge.js';
import { registerRecord } from './commands/record.js';
import { registerReview } from './commands/review.js';
import { registerRun } from './commands/run.js';
import { registerSdk } from './commands/sdk.js';
import { registerSkew } from './commands/skew.js';

const program = new Command('concord')
  .description('A snapshot gate for Code Mode agents')
  .showHelpAfterError()
  // Bad usage exits 2, like every other input error of concord.
  .exitOverride((err) => {
    process.exit(err.exitCode === 0 ? 0 : 2);
  });

for (const register of [registerGate, registerInit, registerMerge, registerRecord, registerReview, registerRun, registerSdk, registerSkew]) register(program);

await program.parseAsync(process.argv);
