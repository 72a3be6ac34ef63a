import type { CoreDefinition, CoreSchema, LoweredSchema } from './core.js';
import { cyclicNodes } from './cycles.js';
import { schemaDocText } from './notes.js';
import { memberPath } from './paths.js';
import { type NumberingScope, StructureIds } from './structure-ids.js';
import type { SchemaScalar, SchemaTypeName, SchemaViolation } from './types.js';

/*
 * Lowers JSON Schema as tools really bring it (draft-07, 2019-09, 2020-12, OpenAPI 3.0) to the core form
 * both renderers read. Keywords that only annotate or constrain never change a shape; what has no type
 * becomes `{}` at the smallest node holding it, and that place is reported with its JSON path. The walk
 * keeps its own stack (depth is unbounded), lowers each schema object once (shared subtrees stay shared,
 * so the work is linear), and never throws on any input.
 */

const TYPE_NAMES: ReadonlySet<string> = new Set<SchemaTypeName>([
  'object',
  'array',
  'string',
  'number',
  'integer',
  'boolean',
  'null',
]);

/** Keywords that give a node a shape; a node with none of them accepts any value. */
const SHAPE_KEYWORDS = [
  'type',
  'enum',
  'const',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'properties',
  'additionalProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'nullable',
];

/** Keywords carried into a synthetic node that stands for part of a node (one arm of a `type` list). */
const STRUCTURE_KEYWORDS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'maxItems',
  'enum',
  'const',
  'type',
];

const ANY: CoreSchema = Object.freeze({}) as CoreSchema;
const ON_PATH = Symbol('on path');
const NO_ITEMS: readonly unknown[] = Object.freeze([]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isScalar(value: unknown): value is SchemaScalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function hasShape(node: Record<string, unknown>): boolean {
  return SHAPE_KEYWORDS.some((key) => Object.hasOwn(node, key));
}

function isAny(core: CoreSchema): boolean {
  for (const key in core) if (key !== 'description') return false;
  return true;
}

function pick(node: Record<string, unknown>, keys: readonly string[], except: string[] = []): Record<string, unknown> {
  const part: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(node, key) && !except.includes(key)) part[key] = node[key];
  return part;
}

/** Whether all `doc` says of `node` is its title: no description, no constraint worth a note. */
function isTitleOnly(node: Record<string, unknown>, doc: string): boolean {
  return doc !== '' && doc === node.title && (typeof node.description !== 'string' || node.description === '');
}

function withDoc(core: CoreSchema, doc: string): CoreSchema {
  return doc === '' ? core : { ...core, description: doc };
}

/**
 * A union of lowered arms; any arm that accepts anything makes the whole union accept anything. Nested
 * unions stay nested (the renderers write them flat), so a deep chain of unions costs linear work here.
 */
function union(arms: readonly CoreSchema[]): CoreSchema {
  if (arms.some(isAny)) return ANY;
  return arms.length === 1 ? arms[0]! : { oneOf: [...arms] };
}

/** An object arm with its discriminator field pinned to one literal (and required). */
function withTag(core: CoreSchema, property: string, tag: string, name: string): CoreSchema {
  if (core.type !== 'object') return core;
  const fields: Record<string, CoreSchema> = Object.create(null);
  Object.assign(fields, core.properties ?? {});
  const description = fields[property]?.description;
  fields[property] = description === undefined ? { const: tag } : { const: tag, description };
  const required = core.required?.includes(property) ? core.required : [...(core.required ?? []), property];
  return { ...core, properties: fields, required, name };
}

/** `~1` and `~0` unescaped, percent-decoding for URI fragments. */
function pointerSegments(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  let text: string;
  try {
    text = decodeURIComponent(ref.slice(2));
  } catch {
    return undefined;
  }
  return text.split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const DEFINITION_FOLDERS = new Set(['$defs', 'definitions', 'schemas']);

interface Plan {
  /** Pushed as they are: each child is its own enter frame. */
  children: EnterFrame[];
  build: (cores: CoreSchema[]) => CoreSchema;
}

/** `name`: the field or definition name the node stands under, if any. */
interface EnterFrame {
  enter: true;
  node: unknown;
  path: string;
  name?: string;
}

/** An enter frame for a child; every one has the same shape, so the walk's stack stays monomorphic. */
function child(node: unknown, path: string, name?: string): EnterFrame {
  return { enter: true, node, path, name };
}

type Frame = EnterFrame | { enter: false; node: object; count: number; build: Plan['build'] };

class Lowering {
  readonly degradations: SchemaViolation[] = [];
  readonly definitions = new Map<string, CoreDefinition>();
  readonly #root: unknown;
  /** Each schema object met: on the current path, or lowered (one lookup tells which). */
  readonly #state = new Map<object, CoreSchema | typeof ON_PATH>();
  readonly #pending: { key: string; target: unknown; path: string }[] = [];

  constructor(root: unknown) {
    this.#root = root;
  }

  run(): CoreSchema {
    const schema = this.lower(this.#root, '$');
    for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
      const definition = this.definitions.get(next.key)!;
      definition.schema = this.lower(next.target, next.path, definition.name);
    }
    this.#markCycles();
    return schema;
  }

  degrade(path: string, message: string): CoreSchema {
    this.degradations.push({ path, message });
    return ANY;
  }

  lower(root: unknown, path: string, name?: string): CoreSchema {
    const frames: Frame[] = [{ enter: true, node: root, path, name }];
    const results: CoreSchema[] = [];
    for (let frame = frames.pop(); frame !== undefined; frame = frames.pop()) {
      if (!frame.enter) {
        const core = frame.build(results.splice(results.length - frame.count, frame.count));
        this.#state.set(frame.node, core);
        results.push(core);
        continue;
      }
      const { node } = frame;
      if (node === true) {
        results.push(ANY);
        continue;
      }
      if (!isPlainObject(node)) {
        const what = node === false ? 'the schema false allows no value' : 'a schema must be an object or a boolean';
        results.push(this.degrade(frame.path, `${what}; written as any value`));
        continue;
      }
      const known = this.#state.get(node);
      if (known !== undefined && known !== ON_PATH) {
        results.push(known);
        continue;
      }
      if (known === ON_PATH) {
        results.push(this.degrade(frame.path, 'this schema object contains itself; use $ref for recursion'));
        continue;
      }
      const plan = this.#plan(node, frame.path, frame.name);
      this.#state.set(node, ON_PATH);
      frames.push({ enter: false, node, count: plan.children.length, build: plan.build });
      for (let i = plan.children.length - 1; i >= 0; i--) frames.push(plan.children[i]!);
    }
    return results.pop()!;
  }

  /** The `$ref` target inside this document, or undefined (reported) when there is none. */
  #resolve(ref: string, path: string): { key: string; target: unknown } | undefined {
    const segments = pointerSegments(ref);
    if (segments === undefined) {
      this.degrade(
        path,
        `$ref ${JSON.stringify(ref)} points outside this schema; only local references (#, #/$defs/…) are resolved`,
      );
      return undefined;
    }
    let target: unknown = this.#root;
    for (const segment of segments) {
      const container: unknown = target;
      target = undefined;
      if (Array.isArray(container) && /^(0|[1-9]\d*)$/.test(segment)) target = container[Number(segment)];
      else if (isPlainObject(container) && Object.hasOwn(container, segment)) target = container[segment];
      if (target === undefined) {
        this.degrade(path, `$ref ${JSON.stringify(ref)} points to nothing in this schema`);
        return undefined;
      }
    }
    return {
      key:
        segments.length === 0 ? '#' : `#/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
      target,
    };
  }

  #reference(ref: string, path: string): CoreSchema {
    const resolved = this.#resolve(ref, path);
    if (resolved === undefined) return ANY;
    const { key, target } = resolved;
    if (!this.definitions.has(key)) {
      const segments = pointerSegments(key)!;
      const last = segments.at(-1);
      const title = isPlainObject(target) && typeof target.title === 'string' ? target.title : '';
      const inFolder = segments.length >= 2 && DEFINITION_FOLDERS.has(segments.at(-2)!);
      const name = (inFolder ? last : undefined) || title || last || 'Root';
      this.definitions.set(key, { key, name, schema: ANY, recursive: false });
      this.#pending.push({ key, target, path: key === '#' ? '$' : `$${key.slice(1).replace(/\//g, '.')}` });
    }
    return { $ref: key };
  }

  #plan(node: Record<string, unknown>, path: string, name: string | undefined): Plan {
    const doc = schemaDocText(node, name);
    const leaf = (core: CoreSchema): Plan => ({ children: [], build: () => withDoc(core, doc) });
    const at = (key: string) => memberPath(path, key);

    if (typeof node.$ref === 'string') {
      const rest = pick(node, SHAPE_KEYWORDS, ['$ref']);
      if (!hasShape(rest)) return leaf(this.#reference(node.$ref, at('$ref')));
      // Beside other shape keywords (allowed from 2019-09) a reference is one more part of an allOf.
      return this.#allOf([{ $ref: node.$ref }, { ...rest, ...pick(node, ['required']) }], path, doc, true);
    }
    if (Array.isArray(node.allOf)) {
      const rest = pick(node, STRUCTURE_KEYWORDS.concat(['anyOf', 'oneOf', 'nullable']));
      const arms: unknown[] = node.allOf.slice();
      if (hasShape(rest)) arms.push(rest);
      return this.#allOf(arms, path, doc, false);
    }
    const armsKey = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : undefined;
    if (armsKey !== undefined) return this.#union(node, armsKey, path, doc);
    if (node.nullable === true) {
      const rest = pick(node, STRUCTURE_KEYWORDS);
      return { children: [child(rest, path)], build: ([core]) => withDoc(union([core!, { type: 'null' }]), doc) };
    }
    if (Array.isArray(node.type)) {
      const names = node.type.filter((name): name is string => typeof name === 'string' && TYPE_NAMES.has(name));
      if (names.length !== node.type.length || names.length === 0) {
        return leaf(this.degrade(at('type'), `type must list names from ${[...TYPE_NAMES].join(', ')}`));
      }
      const rest = pick(node, STRUCTURE_KEYWORDS, ['type']);
      return {
        children: names.map((type) => child({ ...rest, type }, path)),
        build: (cores) => withDoc(union(cores), doc),
      };
    }
    if (Object.hasOwn(node, 'const')) {
      return leaf(
        isScalar(node.const)
          ? { const: node.const }
          : this.degrade(at('const'), 'a const that is an object or array has no literal type'),
      );
    }
    if (Object.hasOwn(node, 'enum')) return leaf(this.#enum(node.enum, at('enum')));
    const type = typeof node.type === 'string' ? node.type : undefined;
    if (type !== undefined && !TYPE_NAMES.has(type))
      return leaf(this.degrade(at('type'), `unknown type ${JSON.stringify(type)}`));
    const isObject =
      type === 'object' ||
      (type === undefined &&
        ['properties', 'additionalProperties', 'patternProperties'].some((key) => Object.hasOwn(node, key)));
    if (isObject) return this.#object(node, path, doc);
    const isArray =
      type === 'array' || (type === undefined && ['items', 'prefixItems'].some((key) => Object.hasOwn(node, key)));
    if (isArray) return this.#array(node, path, doc);
    return leaf(type === undefined ? ANY : { type: type as SchemaTypeName });
  }

  /** `anyOf` or `oneOf`: a union of its arms (tagged where a discriminator pins them), each beside the shape around it. */
  #union(node: Record<string, unknown>, armsKey: 'anyOf' | 'oneOf', path: string, doc: string): Plan {
    const at = (key: string) => memberPath(path, key);
    const arms = node[armsKey] as unknown[];
    const base = pick(node, STRUCTURE_KEYWORDS.concat(['nullable']));
    const baseHasShape = hasShape(base);
    const tags: ({ tag: string; name: string } | undefined)[] = [];
    const children = arms.map((arm, index) => {
      const armPath = `${at(armsKey)}[${index}]`;
      const tagged = this.#taggedArm(node.discriminator, arm, armPath);
      tags.push(tagged);
      return child(tagged === undefined ? arm : tagged.target, armPath);
    });
    const tagName = isPlainObject(node.discriminator) ? node.discriminator.propertyName : undefined;
    if (baseHasShape) children.unshift(child(base, path));
    return {
      children,
      build: (all) => {
        const offset = baseHasShape ? 1 : 0;
        const cores = all.map((core, i) =>
          i < offset || tags[i - offset] === undefined
            ? core
            : withTag(core, tagName as string, tags[i - offset]!.tag, tags[i - offset]!.name),
        );
        if (!baseHasShape)
          return withDoc(
            arms.length === 0 ? this.degrade(at(armsKey), `${armsKey} lists no schema`) : union(cores),
            doc,
          );
        const [baseCore, ...armCores] = cores as [CoreSchema, ...CoreSchema[]];
        // Arms that only constrain (`{required: [...]}`) leave the shape beside them as it is.
        if (armCores.every(isAny)) return withDoc(baseCore, doc);
        return withDoc(union(armCores.map((arm) => this.#merge([baseCore, arm], path) ?? arm)), doc);
      },
    };
  }

  /**
   * An arm of a discriminated union whose tag the arm itself does not pin (OpenAPI names it only in the
   * discriminator's mapping, or by the schema's name): its target, to be lowered in place with the tag's
   * value as a literal. Undefined when the arm is not such a reference or already pins the tag.
   */
  #taggedArm(
    discriminator: unknown,
    arm: unknown,
    path: string,
  ): { target: unknown; tag: string; name: string } | undefined {
    if (!isPlainObject(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
    if (!isPlainObject(arm) || typeof arm.$ref !== 'string' || hasShape(pick(arm, SHAPE_KEYWORDS, ['$ref'])))
      return undefined;
    const property = discriminator.propertyName;
    const resolved = this.#resolve(arm.$ref, memberPath(path, '$ref'));
    if (resolved === undefined) return undefined;
    const target = resolved.target;
    const field = isPlainObject(target) && isPlainObject(target.properties) ? target.properties[property] : undefined;
    if (isPlainObject(field) && (Object.hasOwn(field, 'const') || Object.hasOwn(field, 'enum'))) return undefined;
    const mapping = isPlainObject(discriminator.mapping) ? discriminator.mapping : {};
    const named = Object.keys(mapping).find((value) => mapping[value] === arm.$ref);
    const name = pointerSegments(resolved.key)?.at(-1) || 'Root';
    return { target, tag: named ?? name, name };
  }

  #enum(values: unknown, path: string): CoreSchema {
    if (!Array.isArray(values) || values.length === 0) return this.degrade(path, 'enum must list at least one value');
    const kept: SchemaScalar[] = [];
    const seen = new Set<string>();
    for (const [index, value] of values.entries()) {
      if (!isScalar(value))
        return this.degrade(`${path}[${index}]`, 'an enum value that is an object or array has no literal type');
      const identity = `${typeof value}:${String(value)}`;
      if (!seen.has(identity)) {
        seen.add(identity);
        kept.push(value);
      }
    }
    return kept.length === 1 ? { const: kept[0]! } : { enum: kept };
  }

  #object(node: Record<string, unknown>, path: string, doc: string): Plan {
    const properties = isPlainObject(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    const children = names.map((name) =>
      child(properties[name], memberPath(memberPath(path, 'properties'), name), name),
    );
    const extra = node.additionalProperties;
    const extraIsSchema = isPlainObject(extra);
    if (extraIsSchema) children.push(child(extra, memberPath(path, 'additionalProperties')));
    const patterns = isPlainObject(node.patternProperties) ? node.patternProperties : {};
    const patternKeys = Object.keys(patterns);
    for (const key of patternKeys)
      children.push(child(patterns[key], memberPath(memberPath(path, 'patternProperties'), key)));
    return {
      children,
      build: (cores) => {
        const fields: Record<string, CoreSchema> = Object.create(null);
        names.forEach((name, index) => (fields[name] = cores[index]!));
        const required: string[] = [];
        if (Array.isArray(node.required)) {
          for (const name of node.required) {
            if (typeof name !== 'string' || required.includes(name)) continue;
            // A required key with no declared schema still exists: it holds any value.
            if (!Object.hasOwn(fields, name)) fields[name] = ANY;
            required.push(name);
          }
        }
        const valueArms = cores.slice(names.length);
        const core: CoreSchema = { type: 'object' };
        if (Object.keys(fields).length > 0) core.properties = fields;
        if (required.length > 0) core.required = required;
        if (valueArms.length > 0) {
          // Keys matching a pattern hold its schema; other keys hold additionalProperties (any when absent).
          const arms = extraIsSchema || extra === false || patternKeys.length === 0 ? valueArms : [...valueArms, ANY];
          const value = union(arms);
          core.additionalProperties = isAny(value) ? true : value;
        } else if (typeof extra === 'boolean') {
          core.additionalProperties = extra;
        }
        if (core.properties !== undefined && isTitleOnly(node, doc)) return { ...core, title: doc };
        return withDoc(core, doc);
      },
    };
  }

  #array(node: Record<string, unknown>, path: string, doc: string): Plan {
    // 2020-12 tuples are prefixItems (+ items for the rest); earlier drafts give items as an array.
    const prefixKey = Array.isArray(node.prefixItems) ? 'prefixItems' : Array.isArray(node.items) ? 'items' : undefined;
    const prefix = prefixKey === undefined ? NO_ITEMS : (node[prefixKey] as unknown[]);
    const restKey = prefixKey === 'items' ? 'additionalItems' : 'items';
    const rest = prefixKey === undefined || prefixKey === 'prefixItems' ? node.items : node.additionalItems;
    const children = prefix.map((item, index) => child(item, `${memberPath(path, prefixKey!)}[${index}]`));
    const restIsSchema = isPlainObject(rest);
    if (restIsSchema) children.push(child(rest, memberPath(path, restKey)));
    return {
      children,
      build: (cores) => {
        const core: CoreSchema = { type: 'array' };
        if (prefixKey === undefined) {
          if (restIsSchema) core.items = cores[0]!;
          return withDoc(core, doc);
        }
        core.prefixItems = cores.slice(0, prefix.length);
        if (restIsSchema) core.items = cores[prefix.length]!;
        if (rest === false || node.maxItems === prefix.length) core.closed = true;
        return withDoc(core, doc);
      },
    };
  }

  /**
   * `allOf`: objects merge (fields and requirements together), arms that only constrain drop out. A
   * reference among the arms is followed so its fields can merge in.
   */
  #allOf(arms: unknown[], path: string, doc: string, fromRef: boolean): Plan {
    const children = arms.map((arm, index) => {
      const armPath = fromRef ? path : `${memberPath(path, 'allOf')}[${index}]`;
      if (isPlainObject(arm) && typeof arm.$ref === 'string' && !hasShape(pick(arm, SHAPE_KEYWORDS, ['$ref']))) {
        if (arms.length === 1) return child(arm, armPath);
        const resolved = this.#resolve(arm.$ref, memberPath(armPath, '$ref'));
        return child(resolved === undefined ? true : resolved.target, armPath);
      }
      return child(arm, armPath);
    });
    // An arm that only lists required names (`{required: [...]}`) has no shape, but its names still count.
    const extraRequired = arms.flatMap((arm) =>
      isPlainObject(arm) && !hasShape(arm) && Array.isArray(arm.required) ? arm.required : [],
    );
    return {
      children,
      build: (cores) => {
        const merged = this.#merge(cores, path);
        if (merged === undefined)
          return withDoc(
            this.degrade(path, 'allOf of schemas that do not merge (not all objects, or fields that conflict)'),
            doc,
          );
        if (merged.type !== 'object' || merged.properties === undefined) return withDoc(merged, doc);
        const required = [...(merged.required ?? [])];
        for (const name of extraRequired) {
          if (typeof name === 'string' && Object.hasOwn(merged.properties, name) && !required.includes(name))
            required.push(name);
        }
        return withDoc(required.length === 0 ? merged : { ...merged, required }, doc);
      },
    };
  }

  /** The one shape all `cores` describe, or undefined when they do not merge soundly. */
  #merge(cores: CoreSchema[], path: string): CoreSchema | undefined {
    const shaped = cores.filter((core) => !isAny(core));
    if (shaped.length === 0) return ANY;
    if (shaped.length === 1) return shaped[0]!;
    if (shaped.every((core) => core.type === 'object')) {
      const fields: Record<string, CoreSchema> = Object.create(null);
      const required: string[] = [];
      let extra: boolean | CoreSchema | undefined;
      for (const core of shaped) {
        for (const [name, field] of Object.entries(core.properties ?? {})) {
          const existing = fields[name];
          if (existing === undefined || isAny(existing)) fields[name] = field;
          else if (existing !== field && !isAny(field)) {
            const merged = this.#merge([existing, field], memberPath(memberPath(path, 'properties'), name));
            fields[name] =
              merged ??
              this.degrade(
                memberPath(memberPath(path, 'properties'), name),
                'allOf gives this field two shapes that do not merge',
              );
          }
        }
        for (const name of core.required ?? []) if (!required.includes(name)) required.push(name);
        if (core.additionalProperties === false) extra = false;
        else if (extra === undefined) extra = core.additionalProperties;
      }
      const merged: CoreSchema = { type: 'object' };
      if (Object.keys(fields).length > 0) merged.properties = fields;
      if (required.length > 0) merged.required = required;
      // Closed arms of an allOf usually mean "no keys beyond all of these", which is what the merge lists.
      if (extra !== undefined && !(extra === false && merged.properties === undefined))
        merged.additionalProperties = extra;
      return merged;
    }
    const [first, ...others] = shaped;
    if (others.every((core) => JSON.stringify(core) === JSON.stringify(first))) return first;
    // A type narrowed by an enum or const of that type: the enum is the shape.
    const literal = shaped.find((core) => core.enum !== undefined || core.const !== undefined);
    if (
      literal !== undefined &&
      shaped.every(
        (core) =>
          core === literal ||
          (core.type !== undefined && Object.keys(core).every((key) => key === 'type' || key === 'description')),
      )
    )
      return literal;
    return undefined;
  }

  /** Marks definitions that reach themselves; those reaching themselves through unions alone have no type. */
  #markCycles(): void {
    const deep = new Map<string, string[]>();
    const shallow = new Map<string, string[]>();
    for (const [key, definition] of this.definitions) {
      const edges = referencesOf(definition.schema);
      deep.set(key, edges.all);
      shallow.set(key, edges.shallow);
    }
    for (const key of cyclicNodes(shallow)) {
      const definition = this.definitions.get(key)!;
      definition.schema = this.degrade(
        key === '#' ? '$' : `$${key.slice(1).replace(/\//g, '.')}`,
        'this definition is only itself (a union or alias cycle) and has no type',
      );
      deep.set(key, []);
    }
    for (const key of cyclicNodes(deep)) this.definitions.get(key)!.recursive = true;
  }
}

/** The definitions a core node names: all of them, and those reached without passing a field or an item. */
function referencesOf(root: CoreSchema): { all: string[]; shallow: string[] } {
  const all = new Set<string>();
  const shallow = new Set<string>();
  const seen = new Set<CoreSchema>();
  const stack: { core: CoreSchema; nested: boolean }[] = [{ core: root, nested: false }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const { core, nested } = step;
    if (core.$ref !== undefined) {
      all.add(core.$ref);
      if (!nested) shallow.add(core.$ref);
      continue;
    }
    if (seen.has(core)) continue;
    seen.add(core);
    for (const arm of core.oneOf ?? []) stack.push({ core: arm, nested });
    for (const field of Object.values(core.properties ?? {})) stack.push({ core: field, nested: true });
    for (const item of core.prefixItems ?? []) stack.push({ core: item, nested: true });
    if (core.items !== undefined) stack.push({ core: core.items, nested: true });
    if (typeof core.additionalProperties === 'object') stack.push({ core: core.additionalProperties, nested: true });
  }
  return { all: [...all], shallow: [...shallow] };
}

/**
 * Real JSON Schema lowered to the core form. Never throws: a root that cannot even be read (a getter that
 * throws) is `{}`, reported at `$`.
 */
export function lowerSchema(root: unknown): LoweredSchema {
  const lowering = new Lowering(root);
  try {
    const schema = lowering.run();
    return { schema, definitions: lowering.definitions, degradations: lowering.degradations };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      schema: ANY,
      definitions: new Map(),
      degradations: [{ path: '$', message: `the schema could not be read: ${message}` }],
    };
  }
}

/** Every place in a schema root that degrades to an untyped value, with its JSON path and why. */
export function schemaDegradations(root: unknown): SchemaViolation[] {
  return lowerSchema(root).degradations;
}

/**
 * `lowerSchema` for the many roots of one tool set, each distinct root lowered once: tool sets repeat schemas (every
 * tool of a file server returns the same content list, a server's tools take one options object), and a root equal
 * as JSON to one lowered before is that lowering, so the renderers see one lowering and write its types once. A root
 * that contains itself, or cannot be read, is lowered alone.
 */
export class SchemaLowerings {
  readonly #ids = new StructureIds({ isNamed: () => false, mayContainItself: true });
  /** Raw roots: a reference means what it says in its own root, and equal roots say the same. */
  readonly #scope: NumberingScope = { refKey: (ref) => ref, seen: new Map() };
  readonly #lowered = new Map<number, LoweredSchema>();
  /**
   * By outline (its keys and its fields' names), the one root of that outline lowered so far, or null once a
   * second came: a root whose outline no other root has cannot equal one, and is lowered without being hashed.
   */
  readonly #byOutline = new Map<string, { root: object; lowered: LoweredSchema } | null>();

  lower(root: unknown): LoweredSchema {
    const outline = outlineOf(root);
    if (outline === undefined) return lowerSchema(root);
    const alone = this.#byOutline.get(outline);
    if (alone === undefined) {
      const lowered = lowerSchema(root);
      this.#byOutline.set(outline, { root: root as object, lowered });
      return lowered;
    }
    if (alone !== null) {
      // A second root of this outline: the first is hashed now, so either may share the other's lowering.
      this.#byOutline.set(outline, null);
      const id = this.#ids.of(alone.root, this.#scope);
      if (id !== undefined) this.#lowered.set(id, alone.lowered);
    }
    const id = this.#ids.of(root as object, this.#scope);
    if (id === undefined) return lowerSchema(root);
    let lowered = this.#lowered.get(id);
    if (lowered === undefined) this.#lowered.set(id, (lowered = lowerSchema(root)));
    return lowered;
  }
}

/** A root's keys and its fields' names, read without walking it; undefined for what is not a plain record. */
function outlineOf(root: unknown): string | undefined {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return undefined;
  try {
    const properties = (root as Record<string, unknown>).properties;
    const fields = typeof properties === 'object' && properties !== null ? Object.keys(properties).join('\u0000') : '';
    return `${Object.keys(root).join('\u0000')}\u0001${fields}`;
  } catch {
    return undefined;
  }
}
