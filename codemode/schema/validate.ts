import type { JsonSchema, SchemaScalar, SchemaTypeName, SchemaViolation } from './types.js';

/*
 * The subset, beyond the keyword list in docs/architecture.md, is kept unambiguous so that both SDK renderers can
 * trust a valid root without re-checking anything:
 * - a node has one shape: `oneOf` stands beside annotations only; `enum` and `const` exclude each other;
 * - `properties`, `required` and `additionalProperties` need `type: "object"`; `items` needs `type: "array"`;
 * - every `required` name must be declared in `properties` (an undeclared one would have no type to show);
 * - `enum` is non-empty and duplicate-free, and `enum`/`const` values fit a sibling `type`.
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

const KEYWORDS: ReadonlySet<string> = new Set<keyof JsonSchema>([
  'type',
  'oneOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'description',
  'title',
  'default',
  'examples',
]);

const KEYWORD_LIST = [...KEYWORDS].join(', ');
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `.name` for identifier keys, `["a-b"]` for the rest, so every path reads back unambiguously. */
export function memberPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

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

function fitsType(value: SchemaScalar, type: SchemaTypeName): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
    case 'array':
      return false;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

type Step = { kind: 'enter'; node: unknown; path: string } | { kind: 'leave'; node: object };

/** Checks one node's own keywords; pushes its sub-schemas (in document order) for the walk to visit. */
function checkNode(
  node: Record<string, unknown>,
  path: string,
  report: (path: string, message: string) => void,
  children: Step[],
): void {
  const declaredType =
    typeof node.type === 'string' && TYPE_NAMES.has(node.type) ? (node.type as SchemaTypeName) : undefined;

  const checkScalar = (value: unknown, at: string, keyword: string): void => {
    if (!isScalar(value)) {
      report(at, `${keyword} values must be strings, finite numbers, booleans or null, not ${describeValue(value)}`);
    } else if (declaredType !== undefined && !fitsType(value, declaredType)) {
      report(at, `${JSON.stringify(value)} does not fit the sibling type "${declaredType}"`);
    }
  };

  for (const key of Object.keys(node)) {
    const value = node[key];
    const at = memberPath(path, key);
    switch (key) {
      case 'type':
        if (typeof value !== 'string' || !TYPE_NAMES.has(value)) {
          const hint = Array.isArray(value) ? '; to allow several types use oneOf' : '';
          report(at, `type must be one of ${[...TYPE_NAMES].join(', ')}${hint}`);
        }
        break;
      case 'oneOf':
        if (!Array.isArray(value)) {
          report(at, `oneOf must be an array of schemas, not ${describeValue(value)}`);
          break;
        }
        if (value.length < 2) report(at, `oneOf needs at least 2 arms (has ${value.length}); use the arm itself`);
        value.forEach((arm, index) => children.push({ kind: 'enter', node: arm, path: `${at}[${index}]` }));
        break;
      case 'properties':
        if (!isPlainObject(value)) {
          report(at, `properties must be an object mapping field names to schemas, not ${describeValue(value)}`);
          break;
        }
        for (const name of Object.keys(value)) {
          children.push({ kind: 'enter', node: value[name], path: memberPath(at, name) });
        }
        break;
      case 'required': {
        if (!Array.isArray(value)) {
          report(at, `required must be an array of field names, not ${describeValue(value)}`);
          break;
        }
        const properties = isPlainObject(node.properties) ? node.properties : undefined;
        const seen = new Set<string>();
        value.forEach((name: unknown, index) => {
          const itemPath = `${at}[${index}]`;
          if (typeof name !== 'string') {
            report(itemPath, `required names must be strings, not ${describeValue(name)}`);
          } else if (seen.has(name)) {
            report(itemPath, `${JSON.stringify(name)} is listed twice`);
          } else {
            seen.add(name);
            if (properties !== undefined && !Object.hasOwn(properties, name)) {
              report(itemPath, `${JSON.stringify(name)} is required but not declared in properties; declare it`);
            }
          }
        });
        if (properties === undefined && value.length > 0 && !Object.hasOwn(node, 'properties')) {
          report(at, 'required names must be declared in properties; add properties');
        }
        break;
      }
      case 'additionalProperties':
        if (typeof value !== 'boolean') {
          report(at, `additionalProperties must be true or false (schemas are not supported), not ${describeValue(value)}`);
        }
        break;
      case 'items':
        if (Array.isArray(value)) {
          report(at, 'items must be one schema; tuple forms are not supported');
          break;
        }
        children.push({ kind: 'enter', node: value, path: at });
        break;
      case 'enum': {
        if (!Array.isArray(value)) {
          report(at, `enum must be an array of scalars, not ${describeValue(value)}`);
          break;
        }
        if (value.length === 0) report(at, 'enum must list at least one value');
        const seen = new Set<string>();
        value.forEach((item: unknown, index) => {
          const itemPath = `${at}[${index}]`;
          checkScalar(item, itemPath, 'enum');
          if (!isScalar(item)) return;
          const identity = `${typeof item}:${String(item)}`;
          if (seen.has(identity)) report(itemPath, `${JSON.stringify(item)} is listed twice`);
          seen.add(identity);
        });
        break;
      }
      case 'const':
        checkScalar(value, at, 'const');
        break;
      case 'description':
      case 'title':
        if (typeof value !== 'string') report(at, `${key} must be a string, not ${describeValue(value)}`);
        break;
      case 'examples':
        if (!Array.isArray(value)) report(at, `examples must be an array, not ${describeValue(value)}`);
        break;
      case 'default':
        break;
      default:
        report(at, `unknown keyword ${JSON.stringify(key)}; the subset accepts ${KEYWORD_LIST}`);
    }
  }

  const has = (key: string): boolean => Object.hasOwn(node, key);
  if (has('oneOf')) {
    const beside = ['type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items'].filter(has);
    if (beside.length > 0) {
      report(path, `oneOf cannot stand beside ${beside.join(', ')}; move them into the arms`);
    }
  }
  if (has('enum') && has('const')) report(path, 'enum and const exclude each other; keep one');
  const objectKeywords = ['properties', 'required', 'additionalProperties'].filter(has);
  if (objectKeywords.length > 0 && !has('oneOf') && declaredType !== 'object') {
    report(path, `${objectKeywords.join(', ')} need type "object" beside them`);
  }
  if (has('items') && !has('oneOf') && declaredType !== 'array') {
    report(path, 'items needs type "array" beside it');
  }
}

/**
 * Every violation of the subset in a whole schema root, collected in one walk.
 * An empty list means the root may be trusted as a `JsonSchema` from here on.
 *
 * The walk keeps its own stack, so depth is unbounded. Paths are built by concatenation, which V8 keeps as
 * shared ropes until read, so a deep walk stays linear in memory. A sub-schema object reached twice
 * without a cycle (a shared definition) is checked once, and its violations are reported at the first
 * path where it appears; this keeps the walk linear even when sharing would make the tree exponential.
 */
export function validateSchema(root: unknown): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  const report = (path: string, message: string): void => {
    violations.push({ path, message });
  };
  // One lookup per node: a node is either on the current path (a revisit closes a cycle) or checked.
  const state = new Map<object, 'on-path' | 'checked'>();
  const stack: Step[] = [{ kind: 'enter', node: root, path: '$' }];
  const children: Step[] = [];

  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if (step.kind === 'leave') {
      state.set(step.node, 'checked');
      continue;
    }
    const { node, path } = step;
    if (!isPlainObject(node)) {
      report(path, `a schema must be a JSON object, not ${describeValue(node)}`);
      continue;
    }
    const seen = state.get(node);
    if (seen === 'on-path') {
      report(path, 'this schema contains itself (a cycle); recursive schemas are not supported');
      continue;
    }
    if (seen === 'checked') continue;
    state.set(node, 'on-path');
    stack.push({ kind: 'leave', node });
    children.length = 0;
    checkNode(node, path, report, children);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return violations;
}

export function isValidSchema(root: unknown): root is JsonSchema {
  return validateSchema(root).length === 0;
}

/** A schema that breaks the subset; the message lists every violation with its path. */
export class SchemaError extends Error {
  readonly violations: readonly SchemaViolation[];

  /** `subject` names what was checked, e.g. `tool "search" parameters in tools.json`. */
  constructor(violations: readonly SchemaViolation[], subject = 'schema') {
    const count = violations.length === 1 ? '1 violation' : `${violations.length} violations`;
    const lines = violations.map((violation) => `  ${violation.path}: ${violation.message}`);
    super([`${subject} breaks the supported JSON-schema subset (${count}):`, ...lines].join('\n'));
    this.name = 'SchemaError';
    this.violations = violations;
  }
}

/** Throws a `SchemaError` listing every violation, or returns the root as a trusted `JsonSchema`. */
export function assertValidSchema(root: unknown, subject?: string): JsonSchema {
  const violations = validateSchema(root);
  if (violations.length > 0) throw new SchemaError(violations, subject);
  return root as JsonSchema;
}
