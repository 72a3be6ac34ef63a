import type { CoreSchema, LoweredSchema } from '../../schema/core.js';
import type { NumberingScope } from '../../schema/structure-ids.js';
import { hasFields, typeStructures } from '../written-types.js';
import { docComment } from './escape.js';
import { pascalBase, pascalWords } from './names.js';
import { schemaDoc, type TypePath, writeType } from './type-text.js';

/** Longest path part of a type named after where it first appears (`Tool_ScrapeOptions`). */
const MAX_PATH_NAME_LENGTH = 64;

/** Where a schema root's names come from: its tool's base, and what its references name. */
export interface RootNames {
  /** Prefix of the types its own definitions and repeated objects are declared as (`Tool` in `Tool_Money`). */
  base: string;
  /** The `base_part` names declared so far: one set per base for the whole SDK (a tool and a definition may share one). */
  taken: Set<string>;
  /** The root's definition keys that are declared once for every tool, to the type name. */
  shared: ReadonlyMap<string, string>;
  /** The name of the root's own type, which a `#` reference names. */
  self?: string;
}

interface Context {
  lowered: LoweredSchema;
  names: RootNames;
  scope: NumberingScope;
  /** Definition keys of the root already named in this context. */
  refs: Map<string, string>;
}

interface Pending {
  name: string;
  schema: CoreSchema;
  context: Context;
  documented: boolean;
}

/**
 * The `type` declarations of one SDK, in writing order. An object with fields of one structure is declared once,
 * wherever it appears (a root, a definition, a field), under the name of its first appearance in tool order;
 * an object written inline more than once in the SDK is declared on its first use and named after its path.
 */
export class TypeDeclarations {
  readonly blocks: string[] = [];
  readonly #structures = typeStructures();
  /** The declared type of each structure. */
  readonly #nameOf = new Map<number, string>();
  /** How often each structure is written inline, over the whole SDK. */
  readonly #uses = new Map<number, number>();
  readonly #scopes = new WeakMap<LoweredSchema, NumberingScope>();
  readonly #counted = new WeakSet<object>();
  #scopeCount = 0;
  #pending: Pending[] = [];

  /**
   * Counts the objects `lowered` writes inline (its root and its definitions that `shared` leaves it), before
   * anything is declared: an object that appears twice anywhere is declared where it first appears.
   */
  count(lowered: LoweredSchema, shared: ReadonlyMap<string, string>, only?: string): void {
    const scope = this.#scopeOf(lowered, shared);
    const roots =
      only !== undefined
        ? [lowered.definitions.get(only)!.schema]
        : [lowered.schema, ...[...lowered.definitions].filter(([key]) => !shared.has(key)).map(([, d]) => d.schema)];
    const use = (id: number) => this.#uses.set(id, (this.#uses.get(id) ?? 0) + 1);
    for (const root of roots) {
      if (this.#counted.has(root)) continue;
      this.#counted.add(root);
      // Numbered here first (nothing is declared before every root is counted), so the walk that numbers it
      // hears each object inside it: one reached again counts again, and what it holds, written once where it is
      // declared, counts once.
      this.#structures.ofOrUnique(root as Record<string, unknown>, scope, use);
    }
  }

  /**
   * The type text for the root of `lowered` where a tool's signature names it: `name` declared for it (or the
   * type of the same structure declared before), or the type written inline when it is one line with no doc.
   */
  root(lowered: LoweredSchema, name: string, names: RootNames): string {
    const context = this.#context(lowered, names);
    const { schema } = lowered;
    const self = lowered.definitions.get('#');
    if (self !== undefined) {
      // A root that refers to itself is its own definition, written under the tool's name.
      this.#declare(name, self.schema, context, true);
      return name;
    }
    if (hasFields(schema)) {
      const id = this.#structures.ofOrUnique(schema as Record<string, unknown>, context.scope);
      const known = this.#nameOf.get(id);
      if (known !== undefined) return known;
      this.#nameOf.set(id, name);
      this.#declare(name, schema, context, true);
      return name;
    }
    const text = this.#text(schema, context);
    if (text.includes('\n') || schemaDoc(schema) !== '') {
      this.blocks.push(this.#block(name, schema, text, true));
      this.#flush();
      return name;
    }
    this.#flush();
    return text;
  }

  /**
   * The structure of the root of `lowered` when the root is a type of its own (an object with fields, not referring
   * to itself), as `root` reads it; else undefined.
   */
  rootStructure(lowered: LoweredSchema, shared: ReadonlyMap<string, string>): number | undefined {
    if (lowered.definitions.has('#') || !hasFields(lowered.schema)) return undefined;
    return this.#structures.ofOrUnique(lowered.schema as Record<string, unknown>, this.#scopeOf(lowered, shared));
  }

  /** Declares one shared definition under `name`, its references read in the root it came from. */
  definition(lowered: LoweredSchema, key: string, name: string, names: RootNames): void {
    const context = this.#context(lowered, names);
    const definition = lowered.definitions.get(key)!;
    context.refs.set(key, name);
    if (!definition.recursive && hasFields(definition.schema)) {
      this.#nameOf.set(this.#structures.ofOrUnique(definition.schema as Record<string, unknown>, context.scope), name);
    }
    this.#declare(name, definition.schema, context, true);
  }

  #scopeOf(lowered: LoweredSchema, shared: ReadonlyMap<string, string>): NumberingScope {
    let scope = this.#scopes.get(lowered);
    if (scope === undefined) {
      const own = this.#scopeCount++;
      const refKey = (ref: string) => {
        const name = shared.get(ref);
        return name !== undefined ? `shared ${name}` : `${own} ${ref}`;
      };
      this.#scopes.set(lowered, (scope = { refKey, seen: new Map() }));
    }
    return scope;
  }

  #context(lowered: LoweredSchema, names: RootNames): Context {
    return { lowered, names, scope: this.#scopeOf(lowered, names.shared), refs: new Map() };
  }

  #declare(name: string, schema: CoreSchema, context: Context, documented: boolean): void {
    this.#pending.push({ name, schema, context, documented });
    this.#flush();
  }

  /** Writes every declaration waiting, each after the one that first named it. */
  #flush(): void {
    while (this.#pending.length > 0) {
      const { name, schema, context, documented } = this.#pending.shift()!;
      this.blocks.push(this.#block(name, schema, this.#text(schema, context), documented));
    }
  }

  #block(name: string, schema: CoreSchema, text: string, documented: boolean): string {
    const doc = documented ? docComment(schemaDoc(schema), '') : [];
    return [...doc, `type ${name} = ${text};`].join('\n');
  }

  #text(schema: CoreSchema, context: Context): string {
    const parts: string[] = [];
    writeType(
      schema,
      0,
      parts,
      (key) => this.#refName(key, context),
      (node, path) => this.#objectName(node, path, context),
    );
    return parts.join('');
  }

  #refName(key: string, context: Context): string {
    const { names, lowered, refs } = context;
    if (key === '#' && names.self !== undefined) return names.self;
    const shared = names.shared.get(key);
    if (shared !== undefined) return shared;
    const known = refs.get(key);
    if (known !== undefined) return known;
    const definition = lowered.definitions.get(key);
    if (definition === undefined) return 'unknown';
    let id: number | undefined;
    if (!definition.recursive && hasFields(definition.schema)) {
      id = this.#structures.ofOrUnique(definition.schema as Record<string, unknown>, context.scope);
      const same = this.#nameOf.get(id);
      if (same !== undefined) {
        refs.set(key, same);
        return same;
      }
    }
    const name = this.#unique(names, pascalBase(definition.name));
    refs.set(key, name);
    if (id !== undefined) this.#nameOf.set(id, name);
    this.#pending.push({ name, schema: definition.schema, context, documented: true });
    return name;
  }

  #objectName(node: CoreSchema, path: TypePath | undefined, context: Context): string | undefined {
    // An object the numbering did not reach (past its horizon, far down a union chain) is numbered where it is
    // written, so it is the type declared for its structure, if there is one.
    const id = context.scope.seen.get(node) ?? this.#structures.of(node, context.scope);
    if (id === undefined) return undefined;
    const known = this.#nameOf.get(id);
    if (known !== undefined) return known;
    if ((this.#uses.get(id) ?? 0) < 2) return undefined;
    const name = this.#unique(context.names, pathName(path));
    this.#nameOf.set(id, name);
    // The field that holds it carries its description.
    this.#pending.push({ name, schema: node, context, documented: false });
    return name;
  }

  /** `base_part`, with a counter when that name is taken already. */
  #unique(names: RootNames, part: string): string {
    const wanted = `${names.base}_${part}`;
    let name = wanted;
    for (let counter = 2; names.taken.has(name); counter++) name = `${wanted}${counter}`;
    names.taken.add(name);
    return name;
  }
}

/** A name from the last steps of a path: `ScrapeOptions`, `ResultsItem`; `Type` at the root. */
function pathName(path: TypePath | undefined): string {
  let name = '';
  for (let at = path; at !== undefined && name.length < MAX_PATH_NAME_LENGTH; at = at.parent) {
    name = (at.step === '[]' ? 'Item' : pascalWords(at.step)) + name;
  }
  name = name.slice(Math.max(0, name.length - MAX_PATH_NAME_LENGTH));
  return /^[A-Za-z]/.test(name) ? name : `Type${name}`;
}
