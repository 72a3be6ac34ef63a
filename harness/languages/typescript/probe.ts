import type { BoundNamesProbe } from '../pack.js';
import { BOUND, ERROR_CLASS, type ProbeReport, readProbeReport } from '../probe.js';
import { DEFAULT_TOOLS_OBJECT } from '../sdk-names.js';
import { platformGlobals } from './js-globals.js';
import { readTypeScriptNames } from './names.js';

/**
 * A TypeScript program reporting what it can reach: the values its function received (a runtime may pass its bindings
 * as parameters), each told by what it is in the program's scope (`tools`, `ToolCallError`, or `console` when the
 * runtime captures logs with a console of its own), the global object's own properties, and `typeof` of each
 * declared name.
 */
function program(declaredNames: readonly string[]): string {
  const lookups = declaredNames.map((name) => `  [${JSON.stringify(name)}, typeof ${name}],`);
  return [
    'const names: Array<[string, string]> = [',
    ...lookups,
    '];',
    'const kind = (value: unknown) =>',
    `  value === tools ? 'tools' : value === ${ERROR_CLASS} ? '${ERROR_CLASS}' : value === console ? 'console' : typeof value;`,
    'return {',
    '  received: arguments.length,',
    '  receivedKinds: Array.from(arguments, kind),',
    '  tools: typeof tools,',
    `  errorClass: typeof ${ERROR_CLASS} === 'function' && ${ERROR_CLASS}.prototype instanceof Error,`,
    '  globals: Object.getOwnPropertyNames(globalThis),',
    '  names: Object.fromEntries(names),',
    '};',
  ].join('\n');
}

/** What a runtime may hand a program as a value: the bindings, and a console of its own that captures the logs. */
const RECEIVABLE: ReadonlySet<string> = new Set([...BOUND, 'console']);

/**
 * The program receives nothing beyond `tools` and `ToolCallError` (an Error class) and a console of the runtime's, no
 * SDK type name is a value, and the global object holds nothing beyond a fresh worker thread's globals and the two
 * bindings (a runtime may bind them as globals instead of parameters).
 */
async function problems(report: ProbeReport, declared: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const kinds = report.receivedKinds ?? [];
  if (kinds.some((kind) => !RECEIVABLE.has(kind)))
    found.push(
      `the program receives ${report.received} bound values (${kinds.join(', ')}); expected tools and ToolCallError only`,
    );
  if (report.tools !== 'object') found.push(`typeof tools is ${JSON.stringify(report.tools)}; expected "object"`);
  if (!report.errorClass) found.push('ToolCallError is not an Error class');
  const reachable = declared.filter(
    (name) => !(BOUND as readonly string[]).includes(name) && report.names[name] !== 'undefined',
  );
  if (reachable.length > 0)
    found.push(
      `SDK type names reachable as values: ${reachable.map((name) => `${name} (typeof ${report.names[name]})`).join(', ')}`,
    );
  const platform = await platformGlobals();
  const extra = report.globals.filter((name) => !platform.has(name) && !(BOUND as readonly string[]).includes(name));
  if (extra.length > 0) found.push(`globals beyond the JavaScript and Node built-ins: ${extra.join(', ')}`);
  return found;
}

export const TYPESCRIPT_PROBE: BoundNamesProbe = {
  declared: async (sdk, session) =>
    (await readTypeScriptNames(sdk, session, DEFAULT_TOOLS_OBJECT)).declared.map((d) => d.name),
  program,
  read: (value) => readProbeReport(value, true),
  problems,
};
