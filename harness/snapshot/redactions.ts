import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { JsonValue } from '../../runtimes/seam/types.js';
import type { Locator } from '../scenario/shape.js';

/**
 * A project's own volatile values (`redactions:` in `concord.config.yml`): every match of `pattern` becomes a
 * numbered token `<placeholder-N>`, like the built-in ones. Unscoped, it applies to every snapshot file.
 * Scoped to a tool's output (`tool`) and/or a place in it (`path`), it decides which values are volatile
 * there; each such value is then replaced wherever it shows (the program's result, the logs, the model's
 * messages), so a reviewer still sees where it flowed.
 */
export interface Redaction {
  pattern: RegExp;
  placeholder: string;
  /** Only this tool's output; absent: every tool's (when `path` is given) or every file (when neither is). */
  tool?: string;
  /** A place in the tool's output: `$`, `.key`, `["key"]`, `[0]`, `[*]`, `.*`. */
  path?: PathStep[];
}

/** One step of a JSON path: a key, an index, or every member. */
export type PathStep = { key: string } | { index: number } | { every: true };

/** The built-in kinds; a placeholder of the project's own must not take one of these names. */
export const BUILT_IN_TOKENS = ['tmp', 'uuid', 'timestamp', 'date', 'container', 'duration', 'pid'] as const;

export const PLACEHOLDER = /^[a-z][a-z0-9_-]{0,39}$/;
export const JSON_PATH = /^\$(?:\.[A-Za-z_$][\w$-]*|\.\*|\[\d+\]|\[\*\]|\["(?:[^"\\]|\\.)*"\])*$/;

/** `$.orders[*]["created at"]` as steps; the text is already known to match JSON_PATH. */
export function parsePath(text: string): PathStep[] {
  const steps: PathStep[] = [];
  for (const m of text.slice(1).matchAll(/\.\*|\[\*\]|\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    if (m[0] === '.*' || m[0] === '[*]') steps.push({ every: true });
    else if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else steps.push({ key: JSON.parse(m[3]!) as string });
  }
  return steps;
}

/** The raw `redactions:` entries of the config, as YAML gave them (the shape is already checked). */
export interface RedactionEntry {
  pattern: string;
  placeholder: string;
  tool?: string;
  path?: string;
}

/**
 * Compiles the config's redactions; a pattern that is no regular expression, or that matches the empty
 * string (it would put a token between every two characters), is an InputError at its line and column.
 */
export function compileRedactions(
  entries: readonly RedactionEntry[],
  loc: Locator,
  list: Node | null | undefined,
): Redaction[] {
  return entries.map((entry, i) => {
    const node =
      isSeq(list) && isMap(list.items[i])
        ? (list.items[i] as { get(key: string, keep: true): unknown }).get('pattern', true)
        : undefined;
    const at = (isScalar(node) ? node : list) as Node;
    let pattern: RegExp;
    try {
      pattern = new RegExp(entry.pattern, 'gu');
    } catch (error) {
      throw loc.error(
        at,
        `redactions[${i}].pattern is not a regular expression: ${(error as Error).message}`,
        'write a JavaScript regular expression without slashes, e.g. "ord_[A-Za-z0-9]{10}"; escape a literal ( [ { . * + ? with a backslash',
      );
    }
    if (new RegExp(pattern.source, 'u').test('')) {
      throw loc.error(
        at,
        `redactions[${i}].pattern ${JSON.stringify(entry.pattern)} matches the empty string`,
        'make it match at least one character, e.g. "+" instead of "*"',
      );
    }
    if ((BUILT_IN_TOKENS as readonly string[]).includes(entry.placeholder)) {
      const placeholderNode = (list as { items: Array<{ get(key: string, keep: true): unknown }> }).items[i]!.get(
        'placeholder',
        true,
      ) as Node;
      throw loc.error(
        placeholderNode,
        `redactions[${i}].placeholder ${JSON.stringify(entry.placeholder)} is a built-in token`,
        `choose another name; built in: ${BUILT_IN_TOKENS.join(', ')}`,
      );
    }
    return {
      pattern,
      placeholder: entry.placeholder,
      ...(entry.tool !== undefined ? { tool: entry.tool } : {}),
      ...(entry.path !== undefined ? { path: parsePath(entry.path) } : {}),
    };
  });
}

/** The values at `path` in `value`: each string, number or boolean there, or below an object or list there. */
export function valuesAt(value: JsonValue | undefined, path: readonly PathStep[]): string[] {
  let nodes: Array<JsonValue | undefined> = [value];
  for (const step of path) {
    const next: Array<JsonValue | undefined> = [];
    for (const node of nodes) {
      if (node === null || typeof node !== 'object') continue;
      if ('every' in step) next.push(...(Array.isArray(node) ? node : Object.values(node)));
      else if ('index' in step) Array.isArray(node) && next.push(node[step.index]);
      else if (!Array.isArray(node) && Object.hasOwn(node, step.key)) next.push(node[step.key]);
    }
    nodes = next;
  }
  const leaves: string[] = [];
  // Iterative: a tool's output may nest deeper than the stack.
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined || node === null) continue;
    if (typeof node === 'object') stack.push(...(Array.isArray(node) ? node : Object.values(node)));
    else leaves.push(String(node));
  }
  return leaves;
}
