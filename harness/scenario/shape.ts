import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, type Pair } from 'yaml';
import { InputError } from './error.js';

/**
 * A description of the YAML a field accepts; `check` walks a node against it, and `toJsonSchema` writes the
 * same description as a JSON Schema for editors. `description` says what the value is for (shown by editors).
 */
export type Shape = (
  | { kind: 'string'; nonEmpty?: boolean; pattern?: RegExp; patternHint?: string }
  | { kind: 'number'; min?: number; max?: number; integer?: boolean }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'list'; of: Shape; min?: number }
  | { kind: 'map'; fields: Readonly<Record<string, Field>> }
  /** A map with exactly one of the given keys, e.g. a script step `user:` / `assistant:` / `final:`. */
  | { kind: 'choice'; options: Readonly<Record<string, Shape>>; what: string }
  /** Free-form JSON data (plugin config). */
  | { kind: 'json' }
) & { description?: string };

export interface Field {
  shape: Shape;
  required?: boolean;
  hint?: string;
}

/** Positions of nodes in one file, so errors can name file:line:column. */
export class Locator {
  readonly lines = new LineCounter();
  /** The parsed document, once there is one: an alias is checked as the node it names. */
  document: Document | undefined;
  constructor(readonly file: string) {}

  error(node: Node | Pair | null | undefined, problem: string, hint: string): InputError {
    const offset = offsetOf(node);
    const { line, col } = this.lines.linePos(offset);
    return new InputError(this.file, Math.max(line, 1), Math.max(col, 1), problem, hint);
  }

  position(node: Node | Pair | null | undefined): { line: number; column: number } {
    const { line, col } = this.lines.linePos(offsetOf(node));
    return { line: Math.max(line, 1), column: Math.max(col, 1) };
  }

  line(node: Node | Pair | null | undefined): number {
    return Math.max(this.lines.linePos(offsetOf(node)).line, 1);
  }
}

function offsetOf(node: Node | Pair | null | undefined): number {
  if (!node) return 0;
  if ('range' in node && node.range) return node.range[0];
  if ('key' in node) {
    // A key at the very start of the file has offset 0: fall back to the value only when the key has no place.
    const key = node.key as Node | null;
    return key && 'range' in key && key.range ? key.range[0] : offsetOf(node.value as Node);
  }
  return 0;
}

const describe = (node: unknown): string =>
  isMap(node) ? 'a mapping' : isSeq(node) ? 'a list' : isScalar(node) ? `${JSON.stringify(node.value)}` : 'nothing';

/** Checks `node` against `shape`; throws the first violation with its position. `where` names the field. */
export function check(loc: Locator, node: Node | null, shape: Shape, where: string): void {
  // An alias is checked as the node it names. Every shape but free-form data nests a finite number of levels,
  // so an alias inside the node it names (`&a [*a]`) is checked against a deeper shape and refused there.
  if (isAlias(node) && shape.kind !== 'json') {
    const target = loc.document ? (node.resolve(loc.document) as Node | undefined) : undefined;
    if (target === undefined)
      throw loc.error(
        node,
        `${where} is the alias *${node.source}, and no &${node.source} comes before it`,
        `anchor the value with &${node.source} before this line, or write it out`,
      );
    return check(loc, target, shape, where);
  }
  switch (shape.kind) {
    case 'string':
      return checkString(loc, node, shape, where);
    case 'number':
      return checkNumber(loc, node, shape, where);
    case 'enum':
      return checkEnum(loc, node, shape, where);
    case 'list':
      return checkList(loc, node, shape, where);
    case 'map':
      return checkMap(loc, node, shape, where);
    case 'choice':
      return checkChoice(loc, node, shape, where);
    case 'json':
      return;
  }
}

function checkString(loc: Locator, node: Node | null, shape: Extract<Shape, { kind: 'string' }>, where: string): void {
  if (!isScalar(node) || typeof node.value !== 'string') {
    throw loc.error(
      node,
      `${where} must be a string, found ${describe(node)}`,
      'quote the value or use a block scalar (|) for several lines',
    );
  }
  if (shape.nonEmpty && node.value.trim() === '')
    throw loc.error(node, `${where} must not be empty`, 'write some text');
  if (shape.pattern && !shape.pattern.test(node.value)) {
    throw loc.error(
      node,
      `${where} ${JSON.stringify(node.value)} is not allowed`,
      shape.patternHint ?? `match ${shape.pattern}`,
    );
  }
}

function checkNumber(loc: Locator, node: Node | null, shape: Extract<Shape, { kind: 'number' }>, where: string): void {
  const value = isScalar(node) ? node.value : undefined;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (shape.integer && !Number.isInteger(value)) ||
    value < (shape.min ?? -Infinity) ||
    value > (shape.max ?? Infinity)
  ) {
    const bounds =
      shape.min !== undefined && shape.max !== undefined
        ? ` from ${shape.min} to ${shape.max}`
        : shape.min !== undefined
          ? ` ≥ ${shape.min}`
          : shape.max !== undefined
            ? ` ≤ ${shape.max}`
            : '';
    throw loc.error(
      node,
      `${where} must be ${shape.integer ? 'a whole number' : 'a number'}${bounds}, found ${describe(node)}`,
      'write a plain number such as 2000',
    );
  }
}

function checkEnum(loc: Locator, node: Node | null, shape: Extract<Shape, { kind: 'enum' }>, where: string): void {
  // YAML reads an unquoted 3.10 as the number 3.1: said as such, with the quotes that keep it a version.
  const written = isScalar(node) && typeof node.value === 'number' ? (node as { source?: unknown }).source : undefined;
  if (typeof written === 'string' && shape.values.includes(written))
    throw loc.error(
      node,
      `${where} reads as the number ${String((node as { value: number }).value)}: YAML takes ${written} unquoted as a number`,
      `quote it: '${written}'`,
    );
  if (!isScalar(node) || typeof node.value !== 'string' || !shape.values.includes(node.value)) {
    throw loc.error(
      node,
      `${where} must be one of ${shape.values.join(', ')}; found ${describe(node)}`,
      `pick one of: ${shape.values.join(', ')}`,
    );
  }
}

function checkList(loc: Locator, node: Node | null, shape: Extract<Shape, { kind: 'list' }>, where: string): void {
  if (!isSeq(node))
    throw loc.error(
      node,
      `${where} must be a list, found ${describe(node)}`,
      'write one item per line, each starting with "- "',
    );
  if (node.items.length < (shape.min ?? 0))
    throw loc.error(node, `${where} needs at least ${shape.min} item(s)`, 'add the missing items');
  node.items.forEach((item, i) => check(loc, item as Node, shape.of, `${where}[${i}]`));
}

function checkMap(loc: Locator, node: Node | null, shape: Extract<Shape, { kind: 'map' }>, where: string): void {
  if (!isMap(node))
    throw loc.error(
      node,
      `${where} must be a mapping, found ${describe(node)}`,
      `write "key: value" lines; known keys: ${Object.keys(shape.fields).join(', ')}`,
    );
  const seen = new Set<string>();
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const field = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    if (!field) {
      throw loc.error(
        pair,
        `unknown key ${JSON.stringify(key)} in ${where}`,
        `known keys: ${Object.keys(shape.fields).join(', ')}`,
      );
    }
    seen.add(key);
    check(loc, pair.value as Node, field.shape, `${where}.${key}`);
  }
  for (const [key, field] of Object.entries(shape.fields)) {
    if (field.required && !seen.has(key)) {
      throw loc.error(
        node,
        `${where} is missing the required key ${JSON.stringify(key)}`,
        field.hint ?? `add "${key}:"`,
      );
    }
  }
}

function checkChoice(loc: Locator, node: Node | null, shape: Extract<Shape, { kind: 'choice' }>, where: string): void {
  const keys = Object.keys(shape.options).join(', ');
  if (!isMap(node) || node.items.length === 0)
    throw loc.error(node, `${where} must be a mapping with one of: ${keys}`, `write ${shape.what}`);
  const [first, ...rest] = node.items;
  const key = isScalar(first!.key) ? String(first!.key.value) : '';
  const option = Object.hasOwn(shape.options, key) ? shape.options[key] : undefined;
  if (!option) throw loc.error(first, `unknown key ${JSON.stringify(key)} in ${where}`, `known keys: ${keys}`);
  if (rest.length > 0) {
    const extra = isScalar(rest[0]!.key) ? String(rest[0]!.key.value) : '?';
    throw loc.error(
      rest[0],
      `${where} has ${JSON.stringify(extra)} beside ${JSON.stringify(key)}`,
      `one key per step; indent ${JSON.stringify(extra)} under ${JSON.stringify(key)} if it belongs to it`,
    );
  }
  check(loc, first!.value as Node, option, `${where}.${key}`);
}
