import fc from 'fast-check';
import type { ToolDefinition } from '../../tools/types.js';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const pair = () => object({ p: { type: 'string' }, q: { type: 'integer' } });
const flags = () => object({ z: { type: 'boolean' }, w: { type: 'boolean' } });

/** Definition names that are tool bases (`Money`, `Order`), a tool's own type (`PayArgs`) or a nested type's. */
const DEFINITIONS = ['Money', 'Order', 'OrderOutput', 'PayArgs', 'GetOrder', 'Pay', 'Money_A', 'A'];

/** Objects that are one structure or two, alone or each held twice (which an SDK declares once, by its path). */
const piece = fc.constantFrom<() => unknown>(
  pair,
  flags,
  () => object({ a: pair(), b: pair() }),
  () => object({ a: flags(), b: flags() }),
);

const node: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    piece.map((make) => make()),
    fc.constantFrom(...DEFINITIONS).map((name) => ({ $ref: `#/$defs/${name}` })),
    fc
      .dictionary(fc.constantFrom('a', 'b', 'ship', 'output', 'A'), tie('node'), { minKeys: 1, maxKeys: 3 })
      .map(object),
  ),
})).node;

/** A root holding objects and naming definitions: the tool set's, the same in every root, so each is shared. */
const rootWith = (definitions: ReadonlyArray<() => unknown>) =>
  fc.dictionary(fc.constantFrom('a', 'b', 'm', 'ship'), node, { minKeys: 1, maxKeys: 3 }).map((properties) => ({
    ...object(properties),
    $defs: Object.fromEntries(DEFINITIONS.map((name, index) => [name, definitions[index]!()])),
  }));

/**
 * Tool sets whose tool names, definition names and the paths of objects held twice make the same type names in
 * several places: a tool `money` and a definition `Money` each naming an object at `a` (`Money_A`), a definition
 * named like a tool's arguments, shared roots named like a tool.
 */
export function collidingBaseToolSetArbitrary(): fc.Arbitrary<ToolDefinition[]> {
  return fc.array(piece, { minLength: DEFINITIONS.length, maxLength: DEFINITIONS.length }).chain((definitions) => {
    const root = rootWith(definitions);
    const tool = fc.record(
      {
        name: fc.constantFrom('money', 'pay', 'order', 'get_order', 'cancel_order', 'a', 'money_a', 'order_output'),
        description: fc.constant(''),
        parameters: root,
        output: root,
      },
      { requiredKeys: ['name', 'description', 'parameters'] },
    );
    return fc.uniqueArray(tool, { selector: (t) => t.name, minLength: 1, maxLength: 6 });
  });
}
