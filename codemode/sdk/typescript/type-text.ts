import type { CoreSchema as JsonSchema } from '../../schema/core.js';
import type { SchemaScalar } from '../../schema/types.js';
import { docComment, numberLiteral, propertyName, stringLiteral } from './escape.js';

/**
 * Most objects/arrays written inside one another; one nested deeper is `unknown`. Keeps the text linear in the
 * schema (indentation grows with depth) and keeps the compiler, which recurses over nested types, well
 * inside its stack. Unions do not count: nested `oneOf`s are written as one flat union.
 */
export const MAX_TYPE_DEPTH = 64;

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
  return schema.description ?? '';
}

/** Turns a definition reference into the name of its type (queueing the definition to be written). */
export type RefNamer = (key: string) => string;

/** A schema still to write, or text ready to append. */
type Step = string | { schema: JsonSchema; depth: number; asArrayElement: boolean };

function isUnion(schema: JsonSchema): boolean {
  return schema.oneOf !== undefined || (schema.enum !== undefined && schema.enum.length > 1);
}

function pushObject(schema: JsonSchema, depth: number, stack: Step[]): void {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const extra = schema.additionalProperties;
  if (names.length === 0) {
    // An index signature, not `Record<string, X>`: the compiler defers an object type's members, so a map
    // whose values are the type itself (`additionalProperties: { $ref: '#' }`) is not a circular alias.
    if (typeof extra === 'object')
      stack.push(' }', { schema: extra, depth, asArrayElement: false }, '{ [key: string]: ');
    else stack.push(extra === false ? 'Record<string, never>' : 'Record<string, unknown>');
    return;
  }
  const inner = indentOf(depth + 1);
  const required = new Set(schema.required ?? []);
  // Pushed in reverse: the stack pops the opening brace first.
  stack.push(`${indentOf(depth)}}`);
  // Only an explicit `true` gets an index signature. An absent keyword (the JSON Schema default, rarely a
  // decision) stays a plain object type: TypeScript object types are open already, and without the
  // signature a misspelled field name in a call is still caught.
  // A typed index signature would have to admit every field's type too: beside fields it stays unknown.
  if (extra === true || typeof extra === 'object') stack.push(`${inner}[key: string]: unknown;\n`);
  for (let index = names.length - 1; index >= 0; index--) {
    const name = names[index]!;
    const property = properties[name]!;
    stack.push(';\n', { schema: property, depth: depth + 1, asArrayElement: false });
    const doc = docComment(schemaDoc(property), inner);
    const head = `${inner}${propertyName(name)}${required.has(name) ? '' : '?'}: `;
    stack.push(doc.length === 0 ? head : `${doc.join('\n')}\n${head}`);
  }
  stack.push('{\n');
}

/** `[A, B]`, or `[A, B, ...R[]]` when more items may follow. */
function pushTuple(schema: JsonSchema, depth: number, stack: Step[]): void {
  const prefix = schema.prefixItems!;
  stack.push(']');
  if (schema.closed !== true) {
    stack.push(
      '[]',
      { schema: schema.items ?? {}, depth: depth + 1, asArrayElement: true },
      prefix.length > 0 ? ', ...' : '...',
    );
  }
  for (let index = prefix.length - 1; index >= 0; index--) {
    stack.push({ schema: prefix[index]!, depth: depth + 1, asArrayElement: false });
    if (index > 0) stack.push(', ');
  }
  stack.push('[');
}

/**
 * Appends the TypeScript type of a trusted (already validated) schema to `parts`. `depth` is the
 * indentation level of the line the type starts on. The walk keeps its own stack, so schema depth is
 * bounded only by memory.
 */
export function writeType(root: JsonSchema, depth: number, parts: string[], refName: RefNamer): void {
  const stack: Step[] = [{ schema: root, depth, asArrayElement: false }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if (typeof step === 'string') {
      parts.push(step);
      continue;
    }
    const { schema } = step;
    if (step.asArrayElement && isUnion(schema)) {
      parts.push('(');
      stack.push(')');
    }
    // `enum`/`const` never sit beside these two types in a valid schema, so this is the whole node.
    const nests = schema.type === 'array' || schema.type === 'object';
    if (nests && step.depth >= MAX_TYPE_DEPTH) {
      parts.push('unknown');
    } else if (schema.$ref !== undefined) {
      parts.push(refName(schema.$ref));
    } else if (schema.prefixItems !== undefined) {
      pushTuple(schema, step.depth, stack);
    } else if (schema.oneOf !== undefined) {
      const arms = schema.oneOf;
      for (let index = arms.length - 1; index >= 0; index--) {
        stack.push({ schema: arms[index]!, depth: step.depth, asArrayElement: false });
        if (index > 0) stack.push(' | ');
      }
    } else if (schema.enum !== undefined) {
      stack.push(schema.enum.map(literal).join(' | '));
    } else if (schema.const !== undefined) {
      stack.push(literal(schema.const));
    } else if (schema.type === 'array') {
      stack.push('[]', { schema: schema.items ?? {}, depth: step.depth + 1, asArrayElement: true });
    } else if (schema.type === 'object') {
      pushObject(schema, step.depth, stack);
    } else {
      parts.push((schema.type !== undefined && PRIMITIVES[schema.type]) || 'unknown');
    }
  }
}
