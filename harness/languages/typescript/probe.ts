import type { BoundNamesProbe } from '../pack.js';
import { BOUND, ERROR_CLASS, type ProbeReport, readProbeReport } from '../probe.js';
import { DEFAULT_TOOLS_OBJECT } from '../sdk-names.js';
import { platformGlobals } from './js-globals.js';
import { readTypeScriptNames } from './names.js';

/**
 * A TypeScript program reporting what it can reach: how many values its function received (the runtime
 * passes bindings as parameters), the global object's own properties, and `typeof` of each declared name.
 */
function program(declaredNames: readonly string[]): string {
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

/**
 * The program receives exactly `tools` and `ToolCallError` (an Error class), no SDK type name is a value, and the
 * global object holds nothing beyond a fresh worker thread's globals.
 */
async function problems(report: ProbeReport, declared: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  if (report.received !== BOUND.length)
    found.push(`the program receives ${report.received} bound values; expected ${BOUND.length} (tools, ToolCallError)`);
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
  const extra = report.globals.filter((name) => !platform.has(name));
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
