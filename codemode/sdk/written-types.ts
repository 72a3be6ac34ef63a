import { StructureIds } from '../schema/structure-ids.js';
import { MAX_TYPE_DEPTH } from './depth.js';

/** An object with fields: what both SDKs write as a type of its own (a `TypedDict` class, a TypeScript type). */
export function hasFields(node: object): boolean {
  const schema = node as Record<string, unknown>;
  if (schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) return false;
  for (const _ in schema.properties) return true;
  return false;
}

/**
 * The structures of an SDK's types, numbered as both languages write them: beside fields, `additionalProperties:
 * false` is written as its absence (a `TypedDict` cannot say it; a TypeScript object type without an index
 * signature already means it), so two objects that differ only there are one type; so are two that differ only in
 * their titles (a title names a type, and the fields that hold it still say theirs). The numbering reads as deep as
 * the types are written and no deeper: a written level is at most two levels of schema (an object and its
 * `properties`, a union and its list of arms), and the horizon is twice that. An object past it (far down a
 * union chain, which both languages write flat) is numbered when it is written.
 */
export function typeStructures(): StructureIds {
  return new StructureIds({
    isNamed: hasFields,
    horizon: 4 * MAX_TYPE_DEPTH,
    ignores: (node, key) =>
      ((key === 'additionalProperties' && node[key] === false) || key === 'title') && hasFields(node),
  });
}
