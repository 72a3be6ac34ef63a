import fc from 'fast-check';
import type { ToolDefinition } from '../../tools/types.js';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

/**
 * Tool names that share last words (`order`, `path`) or none, and names whose own types are the names a shared root
 * would take (`order` owns `OrderOutput`, `order_output` owns `OrderOutputArgs`).
 */
const NAMES = [
  'get_order',
  'cancel_order',
  'getOrder',
  'order',
  'orders',
  'order_output',
  'get_path',
  'path',
  'list_content',
  'content',
  'tools',
  'Tools',
  'lookup',
];

/**
 * Roots several tools take or return: with one field (named like a type, a keyword, a runtime name), with several,
 * with a nested object whose class a tool would name `OrderOutput`, with a definition named like a shared root, one
 * that refers to itself, and one holding an object twice, as it is and in a definition named like a tool (`order`).
 */
/** An object a root holds twice, so an SDK declares it once under its root's base and its path (`Order_A`). */
const pair = () => object({ p: { type: 'string' }, q: { type: 'integer' } });

const ROOTS: ReadonlyArray<() => unknown> = [
  () => object({ id: { type: 'string' }, status: { enum: ['open', 'shipped'] } }, ['id']),
  () => object({ path: { type: 'string' } }, ['path']),
  () => object({ content: { type: 'string' } }),
  () => object({ Order: { type: 'integer' } }),
  () => object({ class: { type: 'boolean' } }),
  () => object({ tools: { type: 'string' } }),
  () => object({ Promise: { type: 'string' } }),
  () => object({ output: object({ x: { type: 'number' } }, ['x']) }),
  () => ({
    ...object({ money: { $ref: '#/$defs/OrderOutput' } }),
    $defs: { OrderOutput: object({ cents: { type: 'integer' } }, ['cents']) },
  }),
  () => ({ ...object({ next: { $ref: '#' } }) }),
  () => object({ a: pair(), b: pair() }),
  () => ({
    ...object({ m: { $ref: '#/$defs/Order' } }),
    $defs: { Order: object({ a: pair(), b: pair() }) },
  }),
  () => ({ type: 'string' }),
];

const root = fc.nat(ROOTS.length - 1).map((index) => ROOTS[index]!());

/**
 * Tool sets whose tools take and return a few roots over and over, under names that share words and names that own
 * the type names a shared root would take: the SDK must name each type once, whatever collides.
 */
export function sharedRootToolSetArbitrary(): fc.Arbitrary<ToolDefinition[]> {
  const tool = fc.record(
    {
      name: fc.constantFrom(...NAMES),
      description: fc.constant(''),
      parameters: root,
      output: root,
    },
    { requiredKeys: ['name', 'description', 'parameters'] },
  );
  return fc.uniqueArray(tool, { selector: (t) => t.name, minLength: 2, maxLength: 7 });
}
