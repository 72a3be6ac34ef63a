import type { CoreDefinition, LoweredSchema } from '../../schema/core.js';
import type { NumberingScope } from '../../schema/structure-ids.js';
import { MAX_TYPE_DEPTH } from '../depth.js';
import { hasFields, typeStructures } from '../written-types.js';
import { type ClassHint, type ClassNamer, type ClassNames, hintSuffix } from './class-names.js';
import { pythonStringLiteral } from './escape.js';
import type { PythonIdioms } from './idioms.js';

/**
 * Most brackets open at once anywhere in the block. CPython 3.9+ refuses more than 200 (3.8: 98, 3.6 and
 * 3.7: 87; measured); 64 leaves room for the brackets around a type and compiles on all of them.
 */
export const MAX_NESTING = 64;

/**
 * Most members written as an `A | B` chain. Longer unions are one flat `Union[...]`: CPython ≤ 3.12
 * exhausts its compiler recursion on chains of about 3,000 members, a flat subscript has no such limit.
 */
export const MAX_PIPE_MEMBERS = 6;

/** The definitions one schema root refers to, the names they got in the SDK, and who names new classes. */
export interface RefScope {
  definitions: ReadonlyMap<string, CoreDefinition>;
  /** Definitions this root's owner wrote, to their tokens: keyed by `local`, so a tool's two roots share them. */
  names: Map<string, string>;
  /** Definition keys whose definition is one structure in both roots of the tool, to its name there. */
  merged: ReadonlyMap<string, string>;
  /** Definition keys written once for every tool, to their tokens. */
  shared: ReadonlyMap<string, string>;
  /** The class name the root itself takes when it refers to itself (`$ref: "#"`). */
  rootHint: string;
  /** What a definition kept with its owner is named after, before its own name: the tool's base. */
  prefix: string;
  namer: ClassNamer;
}

/**
 * A named type waiting for its body to be written: a `TypedDict` for an object with fields, or an alias
 * (`Name = ...`) for a definition of any other shape.
 */
export interface ClassJob {
  /** The name as its owner wants it: nested class names build on it. */
  name: string;
  /** What the text holds until names are declared. */
  token: string;
  schema: Record<string, unknown>;
  scope: RefScope;
  alias: boolean;
  /** Whether its docstring carries its description: a class that is a field's value has it on the field. */
  documented: boolean;
  /** Its level: 1 for a root's or a definition's class, one more per class it is a field of (MAX_TYPE_DEPTH at most). */
  depth: number;
}

type Frame =
  | { op: 'type'; schema: unknown; hint: ClassHint; depth: number }
  | { op: 'list' }
  | { op: 'dict' }
  | { op: 'tuple'; count: number }
  | { op: 'union'; count: number; literalAt: number; literals: string[]; bracketed: boolean };

const PRIMITIVES: Readonly<Record<string, string>> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  null: 'None',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON scalar as a `Literal[...]` member, or undefined when `Literal` cannot hold it (non-integral numbers). */
function literalMember(value: unknown): string | undefined {
  if (typeof value === 'string') return pythonStringLiteral(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null) return 'None';
  // A JSON number reaches us as a double: write the integer that double holds exactly (1e300 included).
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value).toString();
  return undefined;
}

/** Whether a node's only content is `oneOf` (its arms may be spliced into an enclosing union). */
function unionArms(schema: Record<string, unknown>): unknown[] | undefined {
  if (!Array.isArray(schema.oneOf) || 'const' in schema || Array.isArray(schema.enum)) return undefined;
  return schema.oneOf;
}

/** The scalar values a `const`/`enum` node allows, or undefined for any other node. */
function scalarChoices(schema: Record<string, unknown>): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  return undefined;
}

/**
 * Renders Python type expressions for trusted (validated) schema nodes. Objects with properties become
 * named classes queued in `jobs`; everything else is written inline. Iterative: depth is unbounded in the
 * schema and bounded in the text by MAX_NESTING, past which a node is `Any`.
 */
export class TypeExpressionWriter {
  readonly jobs: ClassJob[] = [];
  readonly #names: ClassNames;
  readonly #idioms: PythonIdioms;
  #scope!: RefScope;
  /** The schema of the field being written, whose comment says what it is. */
  #fieldValue: unknown;
  /** The level of the class whose fields are being written (0 outside any): a class below MAX_TYPE_DEPTH is a dict. */
  #classDepth = 0;
  /** Every structure written as a class, to its token: an object that appears again is that class. */
  readonly #structures = typeStructures();
  readonly #classOf = new Map<number, string>();
  /** How each lowered root's nodes are numbered (by its definitions): what its references name, what it numbered. */
  readonly #numbering = new WeakMap<object, NumberingScope>();
  #scopes = 0;
  /** Tokens of the classes named outright (not as forward references) since the last `takeReferences`. */
  #references = new Set<string>();

  constructor(names: ClassNames, idioms: PythonIdioms) {
    this.#names = names;
    this.#idioms = idioms;
  }

  /**
   * The classes the expressions written since the last call name outright: a class statement that names one
   * must come after it, where a forward reference (a quoted name) may come anywhere.
   */
  takeReferences(): Set<string> {
    const references = this.#references;
    this.#references = new Set();
    return references;
  }

  /**
   * The expression for `schema` written where `depth` brackets are already open. `hint` is the class name
   * an object schema here would take (before normalization, capping and counters).
   */
  write(schema: unknown, hint: ClassHint, depth: number, scope: RefScope, classDepth = 0, field = false): string {
    this.#scope = scope;
    this.#classDepth = classDepth;
    this.#fieldValue = field ? schema : undefined;
    const frames: Frame[] = [{ op: 'type', schema, hint, depth }];
    const results: string[] = [];
    const { list, dict, tuple } = this.#idioms;
    while (frames.length > 0) {
      const frame = frames.pop()!;
      if (frame.op === 'list') {
        results.push(`${list}[${results.pop()!}]`);
      } else if (frame.op === 'dict') {
        results.push(`${dict}[str, ${results.pop()!}]`);
      } else if (frame.op === 'tuple') {
        const members = results.splice(results.length - frame.count, frame.count);
        results.push(`${tuple}[${members.length === 0 ? '()' : members.join(', ')}]`);
      } else if (frame.op === 'union') {
        const members = results.splice(results.length - frame.count, frame.count);
        results.push(joinUnion(members, frame, this.#idioms.pipeUnions));
      } else {
        this.#expand(frame, frames, results);
      }
    }
    return results.pop()!;
  }

  #expand(frame: Extract<Frame, { op: 'type' }>, frames: Frame[], results: string[]): void {
    const { schema, hint, depth } = frame;
    if (!isRecord(schema)) return void results.push('Any');
    if (typeof schema.$ref === 'string') return void results.push(this.#reference(schema.$ref));
    const choices = scalarChoices(schema);
    const arms = unionArms(schema);
    if (choices !== undefined || arms !== undefined) return this.#expandUnion(frame, frames, results);
    const type = schema.type;
    if (typeof type === 'string' && Object.hasOwn(PRIMITIVES, type)) return void results.push(PRIMITIVES[type]!);
    if (type === 'array') {
      if (depth + 1 > MAX_NESTING) return void results.push('Any');
      const prefix = schema.prefixItems;
      if (Array.isArray(prefix) && schema.closed === true) {
        frames.push({ op: 'tuple', count: prefix.length });
        for (let i = prefix.length - 1; i >= 0; i--)
          frames.push({ op: 'type', schema: prefix[i], hint: hintSuffix(hint, 'Item'), depth: depth + 1 });
        return;
      }
      if (Array.isArray(prefix)) {
        // An open tuple (more items may follow) reads as a list of whatever any position holds.
        const arms = [...prefix, 'items' in schema ? schema.items : {}];
        frames.push(
          { op: 'list' },
          { op: 'type', schema: { oneOf: arms }, hint: hintSuffix(hint, 'Item'), depth: depth + 1 },
        );
        return;
      }
      if (!('items' in schema)) return void results.push(`${this.#idioms.list}[Any]`);
      frames.push(
        { op: 'list' },
        { op: 'type', schema: schema.items, hint: hintSuffix(hint, 'Item'), depth: depth + 1 },
      );
      return;
    }
    if (type === 'object') {
      const properties = schema.properties;
      if (!isRecord(properties) || Object.keys(properties).length === 0) {
        if (depth + 1 > MAX_NESTING) return void results.push('Any');
        if (!isRecord(schema.additionalProperties)) return void results.push(`${this.#idioms.dict}[str, Any]`);
        frames.push(
          { op: 'dict' },
          { op: 'type', schema: schema.additionalProperties, hint: hintSuffix(hint, 'Value'), depth: depth + 1 },
        );
        return;
      }
      const structure = this.#structureOf(schema);
      const written = this.#classOf.get(structure);
      if (written !== undefined) return void results.push(this.#named(written));
      if (this.#classDepth >= MAX_TYPE_DEPTH) return void results.push(`${this.#idioms.dict}[str, Any]`);
      // A definition written in place (a discriminated union's arm) is named after it, within its owner.
      const own = typeof schema.name === 'string' ? this.#names.pascalCase(schema.name) : '';
      const { name, token } =
        own === '' ? this.#scope.namer.allocateNested(hint) : this.#scope.namer.allocate(`${this.#scope.prefix}${own}`);
      this.#classOf.set(structure, token);
      this.jobs.push({
        name,
        token,
        schema,
        scope: this.#scope,
        alias: false,
        documented: schema !== this.#fieldValue,
        depth: this.#classDepth + 1,
      });
      return void results.push(this.#named(token));
    }
    results.push('Any');
  }

  /**
   * The name of a definition's type: a shared definition's, else one its owner allocates (and queues the
   * body of) on first use, named after the tool and the definition. A definition that reaches itself is
   * named as a string, a forward reference valid before its class exists.
   */
  #reference(key: string): string {
    const scope = this.#scope;
    const definition = scope.definitions.get(key);
    if (definition === undefined) return 'Any';
    // A definition with one structure in both roots of a tool is one class of that tool.
    const merged = scope.merged.get(key);
    const local = merged === undefined ? `${scope.rootHint} ${key}` : `$defs ${merged}`;
    let token = scope.shared.get(key) ?? scope.names.get(local);
    const schema = definition.schema as Record<string, unknown>;
    // A definition with the structure of a class already written is that class.
    const structure = hasFields(schema) && !definition.recursive ? this.#structureOf(schema) : undefined;
    if (token === undefined && structure !== undefined) {
      token = this.#classOf.get(structure);
      if (token !== undefined) scope.names.set(local, token);
    }
    if (token === undefined) {
      const source = key === '#' ? scope.rootHint : `${scope.prefix}${definitionName(this.#names, definition)}`;
      const allocated = scope.namer.allocate(source);
      token = allocated.token;
      scope.names.set(local, token);
      if (structure !== undefined) this.#classOf.set(structure, token);
      this.jobs.push({
        name: allocated.name,
        token,
        schema,
        scope,
        alias: !hasFields(schema),
        documented: true,
        depth: 1,
      });
    }
    // A class name needs no escaping: the quotes make it a forward reference.
    return definition.recursive ? `"${token}"` : this.#named(token);
  }

  /** `token`, recorded as named outright. */
  #named(token: string): string {
    this.#references.add(token);
    return token;
  }

  /** Records that `schema`, read in `scope`, is written as the class `token` (a definition every tool shares). */
  claim(schema: Record<string, unknown>, scope: RefScope, token: string): void {
    this.#scope = scope;
    if (hasFields(schema)) this.#classOf.set(this.#structureOf(schema), token);
  }

  /**
   * The structure of the root of `lowered` when the root is a class of its own (an object with fields, not referring
   * to itself), its references to definitions every tool shares read as `shared` names them; else undefined.
   */
  rootStructure(lowered: LoweredSchema, shared: ReadonlyMap<string, string>): number | undefined {
    if (lowered.definitions.has('#') || !hasFields(lowered.schema)) return undefined;
    return this.#structureOf(lowered.schema as Record<string, unknown>, { definitions: lowered.definitions, shared });
  }

  /**
   * The structure number of `schema` in `scope` (the current one): a reference to a definition every tool shares
   * reads as that definition, any other reference as its root's own (never equal to another root's). Numbered once
   * per lowered root (by its definitions), whichever tools it is the root of.
   */
  #structureOf(schema: Record<string, unknown>, scope: Pick<RefScope, 'definitions' | 'shared'> = this.#scope): number {
    let numbering = this.#numbering.get(scope.definitions);
    if (numbering === undefined) {
      const own = this.#scopes++;
      const { shared } = scope;
      const refKey = (ref: string) => {
        const token = shared.get(ref);
        return token !== undefined ? `shared ${token}` : `${own} ${ref}`;
      };
      this.#numbering.set(scope.definitions, (numbering = { refKey, seen: new Map() }));
    }
    return this.#structures.ofOrUnique(schema, numbering);
  }

  /**
   * A union of every arm, nested `oneOf`s spliced in (a 100,000-deep chain is one flat union), every
   * `const`/`enum` value merged into one `Literal[...]` at the place of the first such arm.
   */
  #expandUnion(frame: Extract<Frame, { op: 'type' }>, frames: Frame[], results: string[]): void {
    const { hint, depth } = frame;
    const literals: string[] = [];
    const seenLiterals = new Set<string>();
    const others: unknown[] = [];
    let literalAt = -1;
    let hasFloat = false;
    const pending: unknown[] = [frame.schema];
    while (pending.length > 0) {
      const node = pending.pop();
      const record = isRecord(node) ? node : undefined;
      const choices = record && scalarChoices(record);
      const arms = record && unionArms(record);
      if (arms !== undefined) {
        for (let i = arms.length - 1; i >= 0; i--) pending.push(arms[i]);
      } else if (choices !== undefined) {
        if (literalAt < 0) literalAt = others.length;
        for (const value of choices) {
          const member = literalMember(value);
          if (member === undefined) hasFloat = true;
          else if (!seenLiterals.has(member)) {
            seenLiterals.add(member);
            literals.push(member);
          }
        }
      } else {
        others.push(node);
      }
    }
    if (hasFloat) others.push({ type: 'number' });
    const memberCount = others.length + (literals.length > 0 ? 1 : 0);
    if (memberCount === 0) return void results.push('Any');
    const bracketed = memberCount > MAX_PIPE_MEMBERS || !this.#idioms.pipeUnions;
    const inner = bracketed ? depth + 1 : depth;
    if (inner > MAX_NESTING || (literals.length > 0 && inner + 1 > MAX_NESTING)) return void results.push('Any');
    if (literals.length === 0) literalAt = -1;
    frames.push({ op: 'union', count: others.length, literalAt, literals, bracketed });
    for (let i = others.length - 1; i >= 0; i--) frames.push({ op: 'type', schema: others[i], hint, depth: inner });
  }
}

/** What a definition's class is named after: its own name (or title) in PascalCase. */
export function definitionName(names: ClassNames, definition: CoreDefinition): string {
  return names.pascalCase(definition.name) || 'Model';
}

/** Whether a definition's schema is written as a `TypedDict` (else as an alias). */
export function isClassDefinition(definition: CoreDefinition): boolean {
  return hasFields(definition.schema as Record<string, unknown>);
}

function joinUnion(rendered: string[], frame: Extract<Frame, { op: 'union' }>, pipeUnions: boolean): string {
  const members: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i <= rendered.length; i++) {
    if (i === frame.literalAt) members.push(`Literal[${frame.literals.join(', ')}]`);
    const member = rendered[i];
    if (member === undefined || seen.has(member)) continue;
    // Any absorbs every other member.
    if (member === 'Any') return 'Any';
    seen.add(member);
    members.push(member);
  }
  if (members.length === 1) return members[0]!;
  // Before 3.10 `|` between types is a TypeError when the module runs: one type or None reads as Optional.
  if (!pipeUnions && members.length === 2 && members.includes('None'))
    return `Optional[${members.find((m) => m !== 'None')!}]`;
  // `"Node" | None` is an operator applied to a string; a subscript holds forward references anywhere.
  const bracketed = frame.bracketed || members.some((member) => member.startsWith('"'));
  return bracketed ? `Union[${members.join(', ')}]` : members.join(' | ');
}
