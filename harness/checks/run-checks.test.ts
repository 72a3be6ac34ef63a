import { describe, expect, it } from 'vitest';
import { type Check, type CheckInput, runChecks } from './index.js';

const input = { view: { sdkName: 'tools-sdk.ts' } } as CheckInput;
const finding = (check: string) => ({ check, severity: 'error' as const, message: `${check} found something` });

describe('runChecks', () => {
  it('runs the checks of a pair at once and keeps their findings in check order', async () => {
    // The first check waits for the last one to have started: run one after the other, this never ends.
    let lastStarted!: () => void;
    const started = new Promise<void>((resolve) => (lastStarted = resolve));
    const checks: Check[] = [
      { id: 'first', run: async () => (await started, [finding('first')]) },
      {
        id: 'thrown',
        run: () => {
          throw new Error('boom');
        },
      },
      { id: 'last', run: () => (lastStarted(), [finding('last')]) },
    ];
    expect((await runChecks(input, checks)).findings).toEqual([
      finding('first'),
      { check: 'thrown', severity: 'error', message: 'the check itself failed: boom' },
      finding('last'),
    ]);
  });

  it('says once what a compiler that ran out of stack could not read, rather than what the engine threw', async () => {
    const deep = 'declare const tools: ' + '{ a: '.repeat(5_000) + 'string' + ' }'.repeat(5_000) + ';';
    const checks: Check[] = [
      {
        id: 'sdk-names',
        run: async () => {
          const ts = (await import('typescript')).default;
          ts.createSourceFile('sdk.ts', deep, ts.ScriptTarget.Latest);
          return [];
        },
      },
    ];
    expect((await runChecks(input, [...checks, ...checks])).findings).toEqual([
      {
        check: 'typecheck-programs',
        severity: 'error',
        message: 'tools-sdk.ts nests too deeply for the TypeScript compiler to read (it ran out of stack)',
      },
    ]);
  });
});
