import { readFileSync } from 'node:fs';
import { resolveOptional } from '../../../runtimes/seam/optional-package.js';
import { sha256, type VerdictCache } from '../../cache/verdict-cache.js';
import {
  type PyrightDiagnostic,
  type PyrightJob,
  type PyrightServers,
  pyrightConfig,
} from '../../interpreters/pyright-server.js';

let version: string | undefined;

/** The installed pyright's version: another pyright may judge the same files otherwise. */
function pyrightVersion(): string {
  version ??= (
    JSON.parse(readFileSync(resolveOptional('pyright/package.json', 'type-checking Python programs'), 'utf8')) as {
      version: string;
    }
  ).version;
  return version;
}

const SEVERITIES = new Set(['error', 'warning', 'information']);

function isDiagnostic(value: unknown): value is PyrightDiagnostic {
  if (value === null || typeof value !== 'object') return false;
  const d = value as Record<string, unknown>;
  const position = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    position(d.line) &&
    position(d.character) &&
    SEVERITIES.has(d.severity as string) &&
    typeof d.message === 'string' &&
    (d.rule === undefined || typeof d.rule === 'string')
  );
}

/** Diagnostics by file name, for exactly the files `open` names. */
const isDiagnostics =
  (open: readonly string[]) =>
  (value: unknown): value is Record<string, PyrightDiagnostic[]> => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    return (
      entries.length === open.length &&
      open.every((name) => Object.hasOwn(value, name)) &&
      entries.every(([, list]) => Array.isArray(list) && list.every(isDiagnostic))
    );
  };

/** Where pyright's answers come from: a session's servers, and its verdict cache when it keeps one. */
export interface PyrightHost {
  readonly pyright: PyrightServers;
  readonly cache?: VerdictCache | undefined;
}

/**
 * pyright's diagnostics for a job, from the verdict cache when an earlier run checked exactly these files
 * with this pyright and configuration (the Python version among it); else from the host's server (and then stored).
 */
export async function checkWithPyright(
  { pyright, cache }: PyrightHost,
  pythonVersion: string,
  job: PyrightJob,
): Promise<Map<string, PyrightDiagnostic[]>> {
  const files = [...job.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const parts = [
    `pyright ${pyrightVersion()}`,
    JSON.stringify(pyrightConfig(pythonVersion)),
    sha256(JSON.stringify([files, job.open])),
  ];
  const cached = await cache?.get('pyright', parts, isDiagnostics(job.open));
  if (cached !== undefined) return new Map(Object.entries(cached));
  const results = await pyright.server(pythonVersion).check(job);
  await cache?.put('pyright', parts, Object.fromEntries(job.open.map((name) => [name, results.get(name) ?? []])));
  return results;
}
