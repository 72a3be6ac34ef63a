import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installCommand, MissingPackageError } from '../../runtimes/seam/optional-package.js';
import { parseErrors, typescript } from '../../runtimes/seam/typescript.js';
import { InputError } from '../scenario/error.js';
import type { CompositionEntry, Scenario } from '../scenario/types.js';
import { sourceExcerpt } from '../scenario/yaml-input.js';
import { literalPattern } from '../text/literal-pattern.js';
import { importPluginModule, isTypeScript } from './typescript-plugins.js';

/** Where an import failed in the plugin's own source, when the error says (or a parse of the file shows). */
export interface Place {
  file: string;
  line: number;
  column: number;
  problem: string;
}

/**
 * Imports every plugin of the scenarios (other than concord's own) once, before anything boots: a plugin
 * that cannot be imported (a syntax error, a missing dependency, a throw at its top level) is bad input,
 * reported as an InputError at the failing place in the plugin (else at the scenario's `plugin:` value),
 * instead of failing every pair it is in; so is a module that exports nothing cordis can apply (the loader would wait
 * for it to start until its deadline). The loader later imports the same module from the module cache.
 */
export async function importPlugins(scenarios: readonly Scenario[]): Promise<void> {
  const seen = new Set<string>();
  for (const scenario of scenarios) {
    for (const entry of scenario.composition) {
      const file = entry.resolved?.file;
      if (file === undefined || entry.resolved?.concord !== undefined || seen.has(file)) continue;
      seen.add(file);
      let module: unknown;
      try {
        module = await importPluginModule(file, pathToFileURL(file).href);
      } catch (error) {
        throw importError(error, file, entry, scenario);
      }
      const problem = pluginShapeProblem(module);
      if (problem !== undefined) {
        const at = entry.pluginAt ?? { line: entry.line, column: 1 };
        throw new InputError(
          scenario.file,
          at.line,
          at.column,
          `${entry.plugin} exports no plugin cordis can apply: ${problem}`,
          "export the plugin as the module's default: export default { name, inject, apply(ctx, config) { … } } (or export an apply function)",
        );
      }
    }
  }
}

function importError(error: unknown, file: string, entry: CompositionEntry, scenario: Scenario): InputError {
  const message = firstLine(error instanceof Error ? error.message : String(error));
  const at = entry.pluginAt ?? { line: entry.line, column: 1 };
  const named = `the plugin of entry "${entry.id}" (${relative(process.cwd(), scenario.file) || scenario.file}:${at.line}:${at.column})`;
  const hint =
    error instanceof MissingPackageError
      ? `run \`${installCommand(error.packageName)}\``
      : 'fix the plugin and run again; concord imports each plugin before anything boots (--debug shows the stack)';
  const place = placeOf(error, file);
  const withStack = (input: InputError): InputError => {
    // --debug prints the stack of the failure: the plugin's, not this report's.
    if (error instanceof Error && error.stack) input.stack = error.stack;
    return input;
  };
  if (place === undefined)
    return withStack(
      new InputError(scenario.file, at.line, at.column, `${entry.plugin} cannot be imported: ${message}`, hint),
    );
  let excerpt = '';
  try {
    excerpt = `\n${sourceExcerpt(readFileSync(place.file, 'utf8'), place.line, place.column)}`;
  } catch {
    // The place is named either way; the excerpt is a courtesy.
  }
  return withStack(
    new InputError(
      place.file,
      place.line,
      place.column,
      `${named} cannot be imported: ${place.problem}${excerpt}`,
      hint,
    ),
  );
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/** Where an import of `file`, or a call into it, failed in its own source: the place and the problem. */
export function placeOf(error: unknown, file: string): Place | undefined {
  // esbuild (TypeScript plugins): a structured location, 1-based line and 0-based column.
  const located = (
    error as { errors?: Array<{ text?: string; location?: { file?: string; line?: number; column?: number } | null }> }
  )?.errors?.[0];
  if (located?.location?.line !== undefined) {
    return {
      file: located.location.file || file,
      line: located.location.line,
      column: (located.location.column ?? 0) + 1,
      problem: located.text ?? 'syntax error',
    };
  }
  const message = error instanceof Error ? error.message : '';
  const inMessage = /^(.+?):(\d+):(\d+): ERROR: (.+)$/m.exec(message);
  if (inMessage)
    return {
      file: inMessage[1]!,
      line: Number(inMessage[2]),
      column: Number(inMessage[3]) + 1,
      problem: inMessage[4]!,
    };
  // A JavaScript syntax error carries no place: the TypeScript parser finds the first one.
  if (error instanceof SyntaxError) {
    const parsed = firstSyntaxError(file);
    if (parsed) return { ...parsed, problem: `SyntaxError: ${firstLine(message)}` };
  }
  // A throw while the module runs: its first stack frame in the plugin's file.
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const name of [pathToFileURL(file).href, file]) {
    const frame = new RegExp(`${literalPattern(name)}:(\\d+):(\\d+)`).exec(stack);
    if (frame)
      return {
        file,
        line: Number(frame[1]),
        column: Number(frame[2]),
        problem: firstLine(`${(error as Error).name}: ${message}`),
      };
  }
  return undefined;
}

function firstSyntaxError(file: string): Place | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const ts = typescript();
  const kind = isTypeScript(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const [diagnostic] = parseErrors(source);
  if (!diagnostic) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
  return {
    file,
    line: line + 1,
    column: character + 1,
    problem: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
  };
}

/**
 * Why a plugin module exports nothing cordis can apply, or undefined when it does. The loader takes the module's
 * default export (else the module itself), and cordis applies a function or an object with an `apply` function.
 */
export function pluginShapeProblem(module: unknown): string | undefined {
  const namespace = (module ?? {}) as Record<string, unknown>;
  let plugin: unknown = namespace.default ?? namespace;
  // A CommonJS module compiled from ESM keeps its default one level down.
  if (isObject(plugin) && plugin.__esModule === true) plugin = plugin.default ?? plugin;
  if (typeof plugin === 'function' || (isObject(plugin) && typeof plugin.apply === 'function')) return undefined;
  if (namespace.default !== undefined)
    return `its default export is ${describeValue(namespace.default)}, not a function or an object with an apply function`;
  const named = Object.keys(namespace).filter((key) => key !== 'default');
  return named.length === 0
    ? 'it exports nothing'
    : `it has no default export and no apply function; it exports ${named.map((key) => `\`${key}\``).join(', ')}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isObject(value))
    return `an object without an apply function (keys: ${Object.keys(value).slice(0, 5).join(', ') || 'none'})`;
  return `a ${typeof value}`;
}
