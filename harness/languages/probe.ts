import type { JsonValue } from '../../runtimes/seam/types.js';

/** The names a program must see at run time, and nothing else. */
export const BOUND = ['ToolCallError', 'tools'] as const;
/** The error class a program catches a failed tool call as. */
export const ERROR_CLASS = 'ToolCallError';

export interface ProbeReport {
  /** Python: every global but `__builtins__`. TypeScript: own properties of `globalThis`. */
  globals: string[];
  /** Declared name → how it resolved (`NameError`/`bound` in Python, its `typeof` in TypeScript). */
  names: Record<string, string>;
  errorClass: boolean;
  /** TypeScript only: how many values the program's function received, and what each is in its scope. */
  received?: number;
  receivedKinds?: string[];
  tools?: string;
}

/**
 * Reads a probe's returned value; anything else means the runtime did not run the probe faithfully. `counts`: the
 * report must also say how many values the program received and what `tools` is (a probe that passes bindings as
 * parameters reports both).
 */
export function readProbeReport(value: JsonValue | undefined, counts: boolean): ProbeReport | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { globals, names, errorClass, received, receivedKinds, tools } = value;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const table = (v: unknown): v is Record<string, string> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
  if (!strings(globals) || !table(names) || typeof errorClass !== 'boolean') return undefined;
  if (counts && (typeof received !== 'number' || typeof tools !== 'string' || !strings(receivedKinds)))
    return undefined;
  return {
    globals,
    names,
    errorClass,
    ...(typeof received === 'number' ? { received } : {}),
    ...(strings(receivedKinds) ? { receivedKinds } : {}),
    ...(typeof tools === 'string' ? { tools } : {}),
  };
}
