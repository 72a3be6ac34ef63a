import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';
import { readDurations } from './longest-first.js';

/** The variable that names where the run's durations go (`test/durations.json` to renew the committed ones). */
export const DURATIONS_VARIABLE = 'CONCORD_TEST_DURATIONS';

/**
 * Writes the seconds each test file took, by path from the project root, when CONCORD_TEST_DURATIONS names
 * a file: `CONCORD_TEST_DURATIONS=test/durations.json CI=true npm test` renews what test/longest-first.ts
 * orders a fresh checkout by. The length is vitest's own (`diagnostic().duration`, hooks included), the one
 * its cache keeps and the sequencer reads on a machine that ran the tests before: a file whose work is in
 * `beforeAll` is as long here as there. Files the run did not reach keep their entry; entries of files that no
 * longer exist go. Nothing is written for a run that failed or was stopped.
 */
export default class DurationsReporter implements Reporter {
  #root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.#root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): void {
    const target = process.env[DURATIONS_VARIABLE];
    if (target === undefined || target === '') return;
    const out = resolve(this.#root, target);
    if (reason !== 'passed') {
      console.error(`${DURATIONS_VARIABLE}: ${out} left as it was: the run did not pass (${reason})`);
      return;
    }
    const measured = testModules.map(
      (module) => [relative(this.#root, module.moduleId), module.diagnostic().duration / 1000] as const,
    );
    const text = durationsJson(readDurations(out), measured, (file) => existsSync(resolve(this.#root, file)));
    // Written whole or not at all: the sequencer never reads half a file.
    const temporary = `${out}.${process.pid}`;
    writeFileSync(temporary, text);
    renameSync(temporary, out);
    console.log(
      `${DURATIONS_VARIABLE}: ${relative(process.cwd(), out)}: ${measured.length} file(s) measured, ${Object.keys(JSON.parse(text) as object).length} in all`,
    );
  }
}

/**
 * `known` with the `measured` seconds put in, in tenths, sorted by path, without files `exists` says are gone: the text
 * of test/durations.json.
 */
export function durationsJson(
  known: Readonly<Record<string, number>>,
  measured: ReadonlyArray<readonly [string, number]>,
  exists: (file: string) => boolean,
): string {
  const merged: Record<string, number> = { ...known };
  for (const [file, seconds] of measured) merged[file] = Math.round(seconds * 10) / 10;
  const kept = Object.entries(merged)
    .filter(([file]) => exists(file))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`;
}
