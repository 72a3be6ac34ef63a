import type { ToolDefinition } from 'concord/contract';

// What both languages' renderers share: tool order, type names, one-line descriptions, and a walk of JSON Schema
// that types what it knows and leaves the rest untyped. Deep or huge schemas (a probe sends them) stop at a depth
// and a width, so every SDK stays within what each parser reads.

/** Nesting past this is left untyped: parsers stop at about 100 (Python's indentation, TypeScript's recursion). */
const MAX_DEPTH = 12;
/** Union members past this make the whole union untyped: a chain of thousands stops a compiler. */
const MAX_UNION = 64;

export const sortedTools = (tools: readonly ToolDefinition[]): ToolDefinition[] =>
  [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * One line of prose from a description: whitespace folded, a lone surrogate (which no source file can hold) as
 * U+FFFD, and the characters either language would read as a line break shown as spaces.
 */
export function oneLine(text: unknown): string {
  return (typeof text === 'string' ? text : '')
    .replace(/\p{Cs}/gu, '\uFFFD')
    .replace(/[\s\u0085\u2028\u2029]+/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .trim();
}

/**
 * Type names for each tool (`GlossaryLookupArgs`, `GlossaryLookupOutput`): ASCII words of its name in PascalCase,
 * numbered where a name gives no word or two names give the same one, never one of `reserved`.
 */
export function typeNames(tools: readonly ToolDefinition[], reserved: readonly string[]): Map<string, string> {
  const taken = new Set(reserved);
  const names = new Map<string, string>();
  tools.forEach((tool, index) => {
    const words = tool.name.split(/[^A-Za-z0-9]+/).filter(Boolean);
    let base = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
    if (base === '' || /^[0-9]/.test(base)) base = `Tool${index}`;
    let name = base;
    for (let n = 2; taken.has(name) || taken.has(`${name}Args`) || taken.has(`${name}Output`); n++)
      name = `${base}${n}`;
    taken.add(name);
    names.set(tool.name, name);
  });
  return names;
}

/** The properties of an object schema and whether each is required; undefined for any other schema. */
export function objectFields(schema: unknown): Array<{ key: string; required: boolean; schema: unknown }> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { type, properties, required } = schema as { type?: unknown; properties?: unknown; required?: unknown };
  if (typeof properties !== 'object' || properties === null || (type !== undefined && type !== 'object'))
    return undefined;
  const must = new Set(Array.isArray(required) ? required : []);
  return Object.entries(properties as Record<string, unknown>).map(([key, value]) => ({
    key,
    required: must.has(key),
    schema: value,
  }));
}

/** How one language writes the types a schema walk meets. */
export interface TypeWriter {
  unknown: string;
  string: string;
  number: string;
  integer: string;
  boolean: string;
  null: string;
  literal(value: string | number | boolean | null): string;
  array(item: string): string;
  union(members: readonly string[]): string;
  /** An object: inline (TypeScript) or a mapping (Python, which names its records only at the top). */
  object(fields: ReadonlyArray<{ key: string; required: boolean; type: string }>): string;
}

/** The type of `schema`, written by `writer`; what it does not know (a `$ref`, a pattern) is left untyped. */
export function typeOf(schema: unknown, writer: TypeWriter, depth = 0): string {
  if (depth > MAX_DEPTH || typeof schema !== 'object' || schema === null) return writer.unknown;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return literalOf(s.const, writer);
  if (Array.isArray(s.enum)) {
    if (s.enum.length > MAX_UNION) return writer.unknown;
    return writer.union(s.enum.map((value) => literalOf(value, writer)));
  }
  const arms = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (arms !== undefined) {
    if (arms.length > MAX_UNION) return writer.unknown;
    return writer.union(arms.map((arm) => typeOf(arm, writer, depth + 1)));
  }
  if (Array.isArray(s.type)) return writer.union(s.type.map((type) => typeOf({ ...s, type }, writer, depth + 1)));
  switch (s.type) {
    case 'string':
      return writer.string;
    case 'number':
      return writer.number;
    case 'integer':
      return writer.integer;
    case 'boolean':
      return writer.boolean;
    case 'null':
      return writer.null;
    case 'array':
      return writer.array(typeOf(s.items, writer, depth + 1));
    default: {
      const fields = objectFields(s);
      if (fields === undefined) return writer.unknown;
      return writer.object(
        fields.map((f) => ({ key: f.key, required: f.required, type: typeOf(f.schema, writer, depth + 1) })),
      );
    }
  }
}

function literalOf(value: unknown, writer: TypeWriter): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null
    ? writer.literal(value)
    : writer.unknown;
}
