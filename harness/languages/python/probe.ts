import type { BoundNamesProbe } from '../pack.js';
import { BOUND, ERROR_CLASS, type ProbeReport, readProbeReport } from '../probe.js';

/** Every class a Python SDK block declares at its top level, in order, but the error class (which is bound). */
function declaredClasses(sdk: string): string[] {
  // Top-level statements start in column 0; docstrings and comments in the block are indented or start with `#`.
  return [...sdk.matchAll(/^class[ \t]+([\p{ID_Start}_][\p{ID_Continue}]*)[ \t]*[(:]/gmu)]
    .map((m) => m[1]!)
    .filter((name) => name !== ERROR_CLASS);
}

/**
 * A Python program reporting its globals and, for each declared class, whether the name resolves.
 * Names are looked up with `eval` against the program's globals, so a class leaked into builtins counts too.
 */
function program(classNames: readonly string[]): string {
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

/** The globals are exactly `tools` and `ToolCallError` (an Exception class), and each declared class is a NameError. */
function problems(report: ProbeReport, declared: readonly string[]): string[] {
  const found: string[] = [];
  const extra = report.globals.filter((name) => !(BOUND as readonly string[]).includes(name));
  const missing = BOUND.filter((name) => !report.globals.includes(name));
  if (extra.length > 0) found.push(`globals beyond tools and ToolCallError are bound: ${extra.join(', ')}`);
  if (missing.length > 0) found.push(`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not bound`);
  if (!missing.includes(ERROR_CLASS) && !report.errorClass) found.push('ToolCallError is not an Exception class');
  const resolved = declared.filter((name) => report.names[name] !== 'NameError');
  if (resolved.length > 0) {
    found.push(
      `SDK classes that must raise NameError resolve: ${resolved.map((name) => `${name} (${report.names[name] ?? 'not tried'})`).join(', ')}`,
    );
  }
  return found;
}

export const PYTHON_PROBE: BoundNamesProbe = {
  declared: async (sdk) => declaredClasses(sdk),
  program,
  read: (value) => readProbeReport(value, false),
  problems: async (report, declared) => problems(report, declared),
};
