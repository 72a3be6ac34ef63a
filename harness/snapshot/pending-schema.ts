import type { JsonSchema } from '../guarded/json-input.js';
import { CORDIS_FILE, RUN_CODE_FILE, SDK_FILE, TRANSCRIPT_FILE } from './transcript.js';

/** The files a snapshot folder holds: the only names a proposal from another machine may write. */
export const SNAPSHOT_FILE_NAMES: readonly string[] = [
  CORDIS_FILE,
  RUN_CODE_FILE,
  ...Object.values(SDK_FILE),
  TRANSCRIPT_FILE,
].sort();

const escaped = (name: string) => name.replace(/[.]/g, '\\.');

/**
 * A path below snapshots/ as a manifest or a results file gives it (its segments are checked again where it is used).
 */
export const SNAPSHOT_PATH = {
  type: 'string',
  minLength: 1,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\\\]+$',
  description: 'a path below snapshots/ without control characters or backslashes',
};

/**
 * One proposed change, as a pending manifest and a results file carry it. With `knownFiles`, a write must
 * name a snapshot file `<scenario>/<runtime>/<file>` of a known kind (an artifact from CI may not place any
 * other file under snapshots/), and a delete a snapshot folder or a file in one.
 */
export function changeSchema(knownFiles: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['path', 'action', 'status'],
    properties: {
      path: SNAPSHOT_PATH,
      action: { enum: ['write', 'delete'] },
      status: { enum: ['changed', 'new', 'garbage', 'obsolete'] },
      base: { type: ['string', 'null'] },
    },
    ...(knownFiles
      ? {
          if: { properties: { action: { const: 'write' } } },
          then: {
            properties: {
              path: {
                pattern: `^[^/]+/[^/]+/(?:${SNAPSHOT_FILE_NAMES.map(escaped).join('|')})$`,
                description: `a snapshot file <scenario>/<runtime>/<file>, the file one of ${SNAPSHOT_FILE_NAMES.join(', ')}`,
              },
            },
          },
          else: {
            properties: {
              path: {
                pattern: '^[^/]+/[^/]+(?:/[^/]+)?$',
                description: 'a snapshot folder <scenario>/<runtime> or a file in one',
              },
            },
          },
        }
      : {}),
  };
}

/** `.concord/pending/<run>/manifest.json`; `knownFiles` as in changeSchema (set for an artifact from elsewhere). */
export function manifestSchema(knownFiles: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['changes'],
    properties: {
      runId: { type: 'string' },
      changes: { type: 'array', items: changeSchema(knownFiles) },
    },
  };
}

/** A path as a case-insensitive, normalizing file system may store it: two paths with one key are one file there. */
export const foldedPath = (path: string): string => path.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');

/**
 * The first path of `paths` that names the same file as an earlier one (after case folding and NFC), with both indexes.
 */
export function repeatedPath(paths: readonly string[]): { index: number; earlier: number } | undefined {
  const seen = new Map<string, number>();
  for (const [index, path] of paths.entries()) {
    const key = foldedPath(path);
    const earlier = seen.get(key);
    if (earlier !== undefined) return { index, earlier };
    seen.set(key, index);
  }
  return undefined;
}
