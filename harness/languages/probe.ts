import type { JsonValue, Language } from '../../../runtimes/seam/types.js';

/** The names a program must see at run time, and nothing else. */
export const BOUND = ['ToolCallError', 'tools'] as const;
const ERROR_CLASS = 'ToolCallError';

/**
 * A Python program reporting its globals and, for each declared class, whether the name resolves.
 * Names are looked up with `eval` against the program's globals, so a class leaked into builtins counts too.
 */
export function pythonProbe(classNames: readonly string[]): string {
  return [
    'scope = globals()',
    'outcome = {}',
    `for name in ${JSON.stringify(classNames)}:`,
    '    try:',
    '        eval(name, scope)',
    '        outcome[name] = "bound"',
    '    except NameError:',
    '        outcome[name] = "NameError"',
    '    except BaseException as error:',
    '        outcome[name] = type(error).__name__',
    `error_class = scope.get(${JSON.stringify(ERROR_CLASS)})`,
    'return {',
    '    "globals": sorted(name for name in scope if name != "__builtins__"),',
    '    "names": outcome,',
    '    "errorClass": isinstance(error_class, type) and issubclass(error_class, Exception),',
    '}',
  ].join('\n');
}

/**
 * A TypeScript program reporting what it can reach: how many values its function received (the runtime
 * passes bindings as parameters), the global object's own properties, and `typeof` of each declared name.
 */
export function typescriptProbe(declaredNames: readonly string[]): string {
  const lookups = declaredNames.map((name) => `  [${JSON.stringify(name)}, typeof ${name}],`);
  return [
    'const names: Array<[string, string]> = [',
    ...lookups,
    '];',
    'return {',
    '  received: arguments.length,',
    '  tools: typeof tools,',
    `  errorClass: typeof ${ERROR_CLASS} === 'function' && ${ERROR_CLASS}.prototype instanceof Error,`,
    '  globals: Object.getOwnPropertyNames(globalThis),',
    '  names: Object.fromEntries(names),',
    '};',
  ].join('\n');
}

export interface ProbeReport {
  /** Python: every global but `__builtins__`. TypeScript: own properties of `globalThis`. */
  globals: string[];
  /** Declared name → how it resolved (`NameError`/`bound` in Python, its `typeof` in TypeScript). */
  names: Record<string, string>;
  errorClass: boolean;
  /** TypeScript only: how many values the program's function received. */
  received?: number;
  tools?: string;
}

/** Reads a probe's returned value; anything else means the runtime did not run the probe faithfully. */
export function readProbeReport(language: Language, value: JsonValue | undefined): ProbeReport | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { globals, names, errorClass, received, tools } = value;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const table = (v: unknown): v is Record<string, string> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
  if (!strings(globals) || !table(names) || typeof errorClass !== 'boolean') return undefined;
  if (language === 'typescript' && (typeof received !== 'number' || typeof tools !== 'string')) return undefined;
  return {
    globals,
    names,
    errorClass,
    ...(typeof received === 'number' ? { received } : {}),
    ...(typeof tools === 'string' ? { tools } : {}),
  };
}
