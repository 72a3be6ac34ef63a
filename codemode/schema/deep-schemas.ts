import type { JsonSchema } from './types.js';

/*
 * The deep shapes the SDK renderers and the benchmark must survive, built without recursion. Each is
 * typed all the way down, so a renderer cannot escape the depth by degrading the root.
 */

/** `depth` nested `oneOf`s, each beside a scalar arm. */
export function oneOfChain(depth: number): JsonSchema {
  let node: JsonSchema = { type: 'string' };
  for (let level = 0; level < depth; level++) node = { oneOf: [{ type: 'null' }, node] };
  return node;
}

/** `depth` nested arrays of strings. */
export function listChain(depth: number): JsonSchema {
  let node: JsonSchema = { type: 'string' };
  for (let level = 0; level < depth; level++) node = { type: 'array', items: node };
  return node;
}

/** `depth` nested objects, each with one required field. */
export function objectChain(depth: number, field = 'next'): JsonSchema {
  let node: JsonSchema = { type: 'string' };
  for (let level = 0; level < depth; level++) {
    node = { type: 'object', properties: { [field]: node }, required: [field] };
  }
  return node;
}
