import type { Command } from 'commander';
import { registerCheck } from './check.js';
import { registerGate } from './gate.js';
import { registerInit } from './init.js';
import { registerMerge } from './merge.js';
import { registerProvision } from './provision.js';
import { registerRecord } from './record.js';
import { registerReview } from './review.js';
import { registerRun } from './run.js';
import { registerSdk } from './sdk.js';
import { registerSkew } from './skew.js';

/** Every command of the `concord` program, each adding itself (its options and help) to `program`. */
export const COMMANDS: ReadonlyArray<(program: Command) => void> = [
  registerCheck,
  registerGate,
  registerInit,
  registerMerge,
  registerProvision,
  registerRecord,
  registerReview,
  registerRun,
  registerSdk,
  registerSkew,
];
