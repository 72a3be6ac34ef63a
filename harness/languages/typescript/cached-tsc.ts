import { typescriptVersion } from '../../../runtimes/seam/typescript.js';
import { sha256 } from '../../cache/verdict-cache.js';
import type { Session } from '../../session.js';
import type { ProgramDiagnostic, ScriptedProgram } from '../typecheck.js';
import { TYPESCRIPT_COMPILER } from './compiler.js';

/** A diagnostic as kept in the cache: its program by index into the programs it was computed for. */
interface StoredDiagnostic {
  program?: number;
  severity: 'error' | 'note';
  line?: number;
  column?: number;
  message: string;
}

const position = (n: unknown) => n === undefined || (Number.isSafeInteger(n) && (n as number) > 0);

const isStored =
  (count: number) =>
  (value: unknown): value is StoredDiagnostic[] =>
    Array.isArray(value) &&
    value.every((d: unknown) => {
      if (d === null || typeof d !== 'object') return false;
      const { program, severity, line, column, message } = d as Record<string, unknown>;
      const known =
        program === undefined ||
        (Number.isSafeInteger(program) && (program as number) >= 0 && (program as number) < count);
      return (
        known &&
        (severity === 'error' || severity === 'note') &&
        position(line) &&
        position(column) &&
        typeof message === 'string'
      );
    });

/**
 * The compiler's diagnostics of `programs` against the TypeScript `sdk`: from the session's verdict cache when an
 * earlier run checked exactly these with this TypeScript, else from the session's compiler (loaded only then: a gate
 * whose SDKs
 * and programs did not change never loads it) and then stored.
 */
export async function checkWithTsc(
  session: Pick<Session, 'cache' | 'slot'>,
  sdk: string,
  programs: readonly ScriptedProgram[],
): Promise<ProgramDiagnostic[]> {
  const { cache } = session;
  const parts = [`typescript ${typescriptVersion()}`, sha256(JSON.stringify([sdk, programs.map((p) => p.code)]))];
  const cached = await cache?.get('tsc', parts, isStored(programs.length));
  const stored =
    cached ??
    (await import('./typecheck.js')).typecheckTypeScript(session.slot(TYPESCRIPT_COMPILER), sdk, programs).map(
      ({ program, ...rest }): StoredDiagnostic => ({
        ...rest,
        ...(program === undefined ? {} : { program: programs.indexOf(program) }),
      }),
    );
  if (cached === undefined) await cache?.put('tsc', parts, stored);
  return stored.map(({ program, ...rest }) => ({
    ...rest,
    ...(program === undefined ? {} : { program: programs[program]! }),
  }));
}
