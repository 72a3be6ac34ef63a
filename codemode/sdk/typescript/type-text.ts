import type { CoreSchema as JsonSchema } from '../../schema/core.js';
import type { SchemaScalar } from '../../schema/types.js';
import { MAX_TYPE_DEPTH } from '../depth.js';
import { hasFields } from '../written-types.js';
import { docComment, numberLiteral, propertyName, stringLiteral } from './escape.js';

const INDENT = '  ';
const indents: string[] = [''];
function indentOf(depth: number): string {
  for (let level = indents.length; level <= depth; level++) indents.push(indents[level - 1] + INDENT);
  return indents[depth]!;
}

const PRIMITIVES: Readonly<Record<string, string>> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  null: 'null',
};

function literal(value: SchemaScalar): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number') return numberLiteral(value);
  return String(value);
}

/** What a schema's own description says (with its notable constraints). */
export function schemaDoc(schema: JsonSchema): string {
  return schema.description ?? schema.title ?? '';
}

/** Turns a definition reference into the name of its type (queueing the definition to be written). */
export type RefNamer = (key: string) => string;

/** Where a node sits below the root it is written in: the property keys and item steps that lead to it. */
export interface TypePath {
  parent: TypePath | undefined;
  /** A property key, or `[]` for an array's items. */
  step: string;
}

/**
 * The name of the type an object with fields is written as instead of inline (one declared elsewhere), or
 * undefined to write it inline. `path` says where it sits, for naming a type declared on first use.
 */
export type ObjectNamer = (schema: JsonSchema, path: TypePath | undefined) => string | undefined;

/** A union being written: where each member's text starts in `parts`, and the `(` opened around it, if any. */
interface UnionText {
  starts: number[];
  paren: number | undefined;
}

/**
 * A schema still to write, text ready to append, or a union's mark: a member starts (`end` false), or it ends.
 * `depth` counts the types the schema is nested in (bounded by MAX_TYPE_DEPTH); `indent` is the indentation level
 * of its fields, one more only for an object's fields, since array items and union members stay on their line.
 */
type Step =
  | string
  | { schema: JsonSchema; depth: number; indent: number; asArrayElement: boolean; path: TypePath | undefined }
  | { union: UnionText; end: boolean };
type SchemaStep = Exclude<Step, string | { union: UnionText }>;

/** Members of at most this many parts are compared; longer ones (inline objects) are written as they come. */
const COMPARED_PARTS = 4;

/** Where member `i` of a union ends in `parts` (before the next member's separator). */
function memberEnd(starts: readonly number[], i: number, parts: readonly string[]): number {
  return i + 1 < starts.length ? starts[i + 1]! - 1 : parts.length;
}

/** Member `i`'s text when it is short enough to compare, else undefined. */
function memberText(starts: readonly number[], i: number, parts: readonly string[]): string | undefined {
  const start = starts[i]!;
  const end = memberEnd(starts, i, parts);
  if (end - start > COMPARED_PARTS) return undefined;
  return end - start === 1 ? parts[start] : parts.slice(start, end).join('');
}

/** Blanks member `i` (never the first, which every repeat follows) with the separator before it. */
function dropMember(starts: readonly number[], i: number, parts: string[]): void {
  parts.fill('', starts[i]! - 1, memberEnd(starts, i, parts));
}

/**
 * Leaves each union member once (`string | string` from two arms that differ only in a format is `string`; an arm
 * of any value has absorbed the others when the schema was lowered). Members are blanked where they stand, so a
 * union costs its own members' parts whatever is nested in them.
 */
function closeUnion(union: UnionText, parts: string[]): void {
  const { starts } = union;
  let kept = starts.length;
  // Most unions have one or two short members: a set only from the second on.
  let first: string | undefined;
  let seen: Set<string> | undefined;
  for (let i = 0; i < starts.length; i++) {
    const text = memberText(starts, i, parts);
    if (text === undefined) continue;
    if (first === undefined) first = text;
    else if (text === first || seen?.has(text)) {
      dropMember(starts, i, parts);
      kept--;
    } else (seen ??= new Set()).add(text);
  }
  if (union.paren === undefined) return;
  if (kept === 1) parts[union.paren] = '';
  else parts.push(')');
}

function isUnion(schema: JsonSchema): boolean {
  return schema.oneOf !== undefined || (schema.enum !== undefined && schema.enum.length > 1);
}

function pushObject(schema: JsonSchema, step: SchemaStep, stack: Step[]): void {
  const { depth, indent, path } = step;
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const extra = schema.additionalProperties;
  if (names.length === 0) {
    // An index signature, not `Record<string, X>`: the compiler defers an object type's members, so a map
    // whose values are the type itself (`additionalProperties: { $ref: '#' }`) is not a circular alias.
    if (typeof extra === 'object')
      stack.push(' }', { schema: extra, depth, indent, asArrayElement: false, path }, '{ [key: string]: ');
    else stack.push(extra === false ? 'Record<string, never>' : 'Record<string, unknown>');
    return;
  }
  const inner = indentOf(indent + 1);
  const required = new Set(schema.required ?? []);
  // Pushed in reverse: the stack pops the opening brace first.
  stack.push(`${indentOf(indent)}}`);
  // Only an explicit `true` gets an index signature. An absent keyword (the JSON Schema default, rarely a
  // decision) stays a plain object type: TypeScript object types are open already, and without the
  // signature a misspelled field name in a call is still caught.
  // A typed index signature would have to admit every field's type too: beside fields it stays unknown.
  if (extra === true || typeof extra === 'object') stack.push(`${inner}[key: string]: unknown;\n`);
  for (let index = names.length - 1; index >= 0; index--) {
    const name = names[index]!;
    const property = properties[name]!;
    stack.push(';\n', {
      schema: property,
      depth: depth + 1,
      indent: indent + 1,
      asArrayElement: false,
      path: { parent: path, step: name },
    });
    const doc = docComment(schemaDoc(property), inner);
    const head = `${inner}${propertyName(name)}${required.has(name) ? '' : '?'}: `;
    stack.push(doc.length === 0 ? head : `${doc.join('\n')}\n${head}`);
  }
  stack.push('{\n');
}

/** `[A, B]`, or `[A, B, ...R[]]` when more items may follow. */
function pushTuple(schema: JsonSchema, step: SchemaStep, stack: Step[]): void {
  const { indent } = step;
  const depth = step.depth + 1;
  const itemPath = { parent: step.path, step: '[]' };
  const prefix = schema.prefixItems!;
  stack.push(']');
  if (schema.closed !== true) {
    stack.push(
      '[]',
      { schema: schema.items ?? {}, depth, indent, asArrayElement: true, path: itemPath },
      prefix.length > 0 ? ', ...' : '...',
    );
  }
  for (let index = prefix.length - 1; index >= 0; index--) {
    stack.push({ schema: prefix[index]!, depth, indent, asArrayElement: false, path: itemPath });
    if (index > 0) stack.push(', ');
  }
  stack.push('[');
}

/**
 * Appends the TypeScript type of a trusted (already validated) schema to `parts`. `depth` is the
 * indentation level of the line the type starts on. An object with fields below the root is written as the
 * name `objectName` gives it, if any. The walk keeps its own stack, so schema depth is bounded only by memory.
 */
export function writeType(
  root: JsonSchema,
  depth: number,
  parts: string[],
  refName: RefNamer,
  objectName?: ObjectNamer,
): void {
  const stack: Step[] = [{ schema: root, depth, indent: depth, asArrayElement: false, path: undefined }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if (typeof step === 'string') {
      parts.push(step);
      continue;
    }
    if ('union' in step) {
      const { union } = step;
      if (step.end) closeUnion(union, parts);
      else {
        if (union.starts.length > 0) parts.push(' | ');
        union.starts.push(parts.length);
      }
      continue;
    }
    const { schema } = step;
    const parenthesized = step.asArrayElement && isUnion(schema);
    if (parenthesized && schema.oneOf === undefined) {
      parts.push('(');
      stack.push(')');
    }
    // `enum`/`const` never sit beside these two types in a valid schema, so this is the whole node.
    const nests = schema.type === 'array' || schema.type === 'object';
    const named =
      schema !== root && objectName !== undefined && hasFields(schema) ? objectName(schema, step.path) : undefined;
    if (named !== undefined) {
      parts.push(named);
    } else if (nests && step.depth >= MAX_TYPE_DEPTH) {
      parts.push('unknown');
    } else if (schema.$ref !== undefined) {
      parts.push(refName(schema.$ref));
    } else if (schema.prefixItems !== undefined) {
      pushTuple(schema, step, stack);
    } else if (schema.oneOf !== undefined) {
      const arms = schema.oneOf;
      const union: UnionText = { starts: [], paren: parenthesized ? parts.push('(') - 1 : undefined };
      const member = { union, end: false };
      stack.push({ union, end: true });
      for (let index = arms.length - 1; index >= 0; index--) {
        stack.push(
          { schema: arms[index]!, depth: step.depth, indent: step.indent, asArrayElement: false, path: step.path },
          member,
        );
      }
    } else if (schema.enum !== undefined) {
      stack.push(schema.enum.map(literal).join(' | '));
    } else if (schema.const !== undefined) {
      stack.push(literal(schema.const));
    } else if (schema.type === 'array') {
      const path = { parent: step.path, step: '[]' };
      const { indent } = step;
      stack.push('[]', { schema: schema.items ?? {}, depth: step.depth + 1, indent, asArrayElement: true, path });
    } else if (schema.type === 'object') {
      pushObject(schema, step, stack);
    } else {
      parts.push((schema.type !== undefined && PRIMITIVES[schema.type]) || 'unknown');
    }
  }
}
