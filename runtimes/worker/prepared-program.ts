import { createHash } from 'node:crypto';
import type { ByteStore } from '../seam/byte-store.js';
import { typescriptVersion } from '../seam/typescript.js';
import { type StripResult, stripTypes } from './strip-types.js';

/**
 * The program with its types erased (or why it cannot run), as `stripTypes` gives it; with a `store`, the
 * answer an earlier process kept there for the same program, binding names and compiler version. Loading the
 * compiler costs about half a second of CPU: a run whose programs were all prepared before never loads it.
 */
export async function preparedProgram(
  program: string,
  globals: readonly string[],
  store?: ByteStore,
): Promise<StripResult> {
  if (store === undefined) return stripTypes(program, globals);
  const key = [
    `typescript ${typescriptVersion()}`,
    createHash('sha256')
      .update(JSON.stringify([program, globals]))
      .digest('hex'),
  ];
  const kept = keptResult(await store.read(key).catch(() => undefined));
  if (kept !== undefined) return kept;
  const result = await stripTypes(program, globals);
  // Kept in the background: the run does not wait for the disk, and a write that fails only costs the next run.
  void store.write(key, Buffer.from(JSON.stringify(result))).catch(() => {});
  return result;
}

/** What a store handed back, when it has the shape of a StripResult (anything else is computed afresh). */
function keptResult(bytes: Uint8Array | undefined): StripResult | undefined {
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { code, error } = value as { code?: unknown; error?: { name?: unknown; message?: unknown } };
  if (typeof code === 'string' && error === undefined) return { code };
  if (code === undefined && error?.name === 'SyntaxError' && typeof error.message === 'string')
    return { error: { name: 'SyntaxError', message: error.message } };
  return undefined;
}
