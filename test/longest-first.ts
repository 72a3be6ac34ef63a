import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each test file took in a full run on a 2-core machine, by path from the project root
 * (test/durations-reporter.ts writes it).
 */
const DURATIONS_FILE = new URL('./durations.json', import.meta.url);

/**
 * Orders test files longest first, so the two workers finish together instead of one running a long file
 * alone at the end. A file's length is what vitest's own cache measured on this machine when it has one,
 * else the committed `test/durations.json` (a fresh checkout, as in CI); a file known to neither is new and
 * runs first, so a slow newcomer cannot become the tail.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const committed = readDurations();
    const seconds = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached !== undefined ? cached.duration / 1000 : (committed[path] ?? Number.POSITIVE_INFINITY);
    };
    return orderLongestFirst(files, seconds);
  }
}

/** `files` by `seconds`, longest first; ties keep their order. */
export function orderLongestFirst<T>(files: readonly T[], seconds: (file: T) => number): T[] {
  return files
    .map((file, index) => ({ file, index, length: seconds(file) }))
    .sort((a, b) => (a.length === b.length ? a.index - b.index : b.length - a.length))
    .map(({ file }) => file);
}

/** The durations `file` holds (the committed ones by default), or none when it is missing or is not such a file. */
export function readDurations(file: string | URL = DURATIONS_FILE): Record<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
    );
  } catch {
    return {};
  }
}
