import { isOutcome } from '../../runtimes/pyodide/compile.js';
import type { CompileOutcome, CompileReport, VerifyReport } from './types.js';

function parse(text: string, who: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${who} answered the compile batch with something that is not JSON: ${text.slice(0, 200)}`);
  }
}

/** Checks the outcomes an interpreter sent back for `count` sources; `who` names it in the error. */
export function readOutcomes(text: string, count: number, who: string): CompileOutcome[] {
  const value = parse(text, who);
  if (!Array.isArray(value) || value.length !== count || !value.every(isOutcome)) {
    throw new Error(`${who} answered the compile batch with unreadable outcomes: ${text.slice(0, 200)}`);
  }
  return value;
}

/** Checks the report of the CPython batch compiler (compile-script.ts) for `count` sources. */
export function readCompileReport(text: string, count: number, who: string): CompileReport {
  const value = parse(text, who) as Partial<CompileReport> | null;
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof value.python !== 'string' ||
    typeof value.unicode !== 'string'
  ) {
    throw new Error(`${who} answered the compile batch with an unreadable report: ${text.slice(0, 200)}`);
  }
  return {
    python: value.python,
    unicode: value.unicode,
    ...(typeof value.build === 'string' ? { build: value.build } : {}),
    results: readOutcomes(JSON.stringify(value.results), count, who),
  };
}

/** Checks the report of the CPython verify batch (import-script.ts) for `count` sources. */
export function readVerifyReport(text: string, count: number, who: string): VerifyReport {
  const report = readCompileReport(text, count, who);
  const value = JSON.parse(text) as { imports?: unknown; import_error?: unknown };
  if (typeof value.import_error === 'string')
    return { ...report, imports: report.results.map(() => null), importError: value.import_error };
  const imports = value.imports;
  const readable =
    Array.isArray(imports) &&
    imports.length === count &&
    imports.every((outcome: unknown, i) => (report.results[i]!.ok ? isOutcome(outcome) : outcome === null));
  if (!readable)
    throw new Error(
      `${who} answered the verify batch with unreadable module outcomes: ${JSON.stringify(imports)?.slice(0, 200)}`,
    );
  return { ...report, imports: imports as Array<CompileOutcome | null> };
}
