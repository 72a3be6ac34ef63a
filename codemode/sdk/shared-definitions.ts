import type { CoreDefinition, LoweredSchema } from '../schema/core.js';
import { StructureIds } from '../schema/structure-ids.js';

/** A `$defs` definition written once, as one class every tool that reaches it shares. */
export interface SharedDefinition {
  /** Its name before normalization: the definition's own name in PascalCase. */
  name: string;
  definition: CoreDefinition;
  /** The definitions of a root that reaches it, which its references resolve in. */
  definitions: ReadonlyMap<string, CoreDefinition>;
  /** The root's definition keys that are shared, to the shared name each stands for. */
  shared: ReadonlyMap<string, string>;
}

export interface SharedDefinitions {
  /** In writing order: a definition after every shared definition its text names unquoted, then by name. */
  definitions: SharedDefinition[];
  /** For each root, its definition keys that are shared, to their shared name. */
  byRoot: ReadonlyMap<LoweredSchema, ReadonlyMap<string, string>>;
}

/** The `$ref` keys a schema names, each once. Iterative. */
function referencedKeys(schema: unknown): Set<string> {
  const keys = new Set<string>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...item);
    else if (typeof item === 'object' && item !== null) {
      for (const [key, value] of Object.entries(item)) {
        if (key === '$ref' && typeof value === 'string') keys.add(value);
        else if (typeof value === 'object' && value !== null) stack.push(value);
      }
    }
  }
  return keys;
}

interface Instance {
  root: LoweredSchema;
  key: string;
  definition: CoreDefinition;
  deps: Set<string>;
}

/**
 * Which definitions of `roots` become one shared class, named after the definition: those whose name
 * (`nameOf`) stands for one structure in every root that has it, and whose references all name shared
 * definitions too. A name with two structures is a real collision: its definitions stay with their tools.
 * Whether a definition is shared depends only on the definitions that bear its name and those it reaches,
 * never on tool names or order.
 */
export function sharedDefinitions(
  roots: readonly LoweredSchema[],
  nameOf: (definition: CoreDefinition) => string,
): SharedDefinitions {
  const { byName, blocked } = definitionsByName(roots, nameOf);
  blockDependents(byName, blocked);
  const byRoot = new Map<LoweredSchema, Map<string, string>>();
  for (const root of roots) byRoot.set(root, new Map());
  for (const [name, instances] of byName) {
    if (blocked.has(name)) continue;
    for (const instance of instances) byRoot.get(instance.root)!.set(instance.key, name);
  }
  const shared = [...byName.keys()].filter((name) => !blocked.has(name));
  const level = referenceLevels(shared, byName);
  shared.sort((a, b) => level.get(a)! - level.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  return {
    definitions: shared.map((name) => {
      const instance = byName.get(name)![0]!;
      return {
        name,
        definition: instance.definition,
        definitions: instance.root.definitions,
        shared: byRoot.get(instance.root)!,
      };
    }),
    byRoot,
  };
}

/**
 * Every definition of `roots` under its name, and the names that stay with their tools: one with two structures, or
 * one that refers to its tool's root.
 */
function definitionsByName(
  roots: readonly LoweredSchema[],
  nameOf: (definition: CoreDefinition) => string,
): { byName: Map<string, Instance[]>; blocked: Set<string> } {
  const byName = new Map<string, Instance[]>();
  const structures = new Map<string, Set<string>>();
  const blocked = new Set<string>();
  // Equal as JSON, each reference read as the name of what it names (`#` the root of its own tool).
  const ids = new StructureIds({ isNamed: () => false });
  for (const root of roots) {
    const refKey = (key: string): string => {
      if (key === '#') return '#';
      const target = root.definitions.get(key);
      return target === undefined ? '' : `#${nameOf(target)}`;
    };
    const scope = { refKey, seen: new Map<object, number>() };
    for (const [key, definition] of root.definitions) {
      if (key === '#') continue;
      const name = nameOf(definition);
      const deps = new Set<string>();
      for (const ref of referencedKeys(definition.schema)) {
        const target = root.definitions.get(ref);
        if (ref === '#') blocked.add(name);
        else if (target !== undefined) deps.add(nameOf(target));
      }
      let instances = byName.get(name);
      if (instances === undefined) byName.set(name, (instances = []));
      instances.push({ root, key, definition, deps });
      let shapes = structures.get(name);
      if (shapes === undefined) structures.set(name, (shapes = new Set()));
      shapes.add(`${definition.recursive}:${ids.ofOrUnique(definition.schema, scope)}`);
    }
  }
  for (const [name, shapes] of structures) if (shapes.size > 1) blocked.add(name);
  return { byName, blocked };
}

/** A definition naming one that stays with its tools stays with its tools too: `blocked` grows to hold them. */
function blockDependents(byName: ReadonlyMap<string, Instance[]>, blocked: Set<string>): void {
  const dependents = new Map<string, Set<string>>();
  for (const [name, instances] of byName) {
    for (const dep of instances[0]!.deps) {
      let set = dependents.get(dep);
      if (set === undefined) dependents.set(dep, (set = new Set()));
      set.add(name);
    }
  }
  const pending = [...blocked];
  while (pending.length > 0) {
    for (const dependent of dependents.get(pending.pop()!) ?? []) {
      if (!blocked.has(dependent)) {
        blocked.add(dependent);
        pending.push(dependent);
      }
    }
  }
}

/** Each shared name's depth in the graph of unquoted references (a recursive definition is always named as a string). */
function referenceLevels(shared: readonly string[], byName: ReadonlyMap<string, Instance[]>): Map<string, number> {
  const level = new Map<string, number>();
  for (const start of shared) {
    const stack: { name: string; expanded: boolean }[] = [{ name: start, expanded: false }];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      if (level.has(frame.name)) continue;
      const deps = [...byName.get(frame.name)![0]!.deps].filter(
        (dep) => dep !== frame.name && !byName.get(dep)![0]!.definition.recursive,
      );
      if (frame.expanded) {
        level.set(
          frame.name,
          deps.reduce((most, dep) => Math.max(most, (level.get(dep) ?? 0) + 1), 0),
        );
      } else {
        stack.push({ name: frame.name, expanded: true });
        for (const dep of deps) if (!level.has(dep)) stack.push({ name: dep, expanded: false });
      }
    }
  }
  return level;
}
