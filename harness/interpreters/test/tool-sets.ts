import fc from 'fast-check';
import { listChain, objectChain, oneOfChain } from '../../../codemode/schema/deep-schemas.js';
import { toolSetArbitrary } from '../../../codemode/schema/test/arbitrary.js';
import { collidingBaseToolSetArbitrary } from '../../../codemode/sdk/test/colliding-bases.js';
import { sharedRootToolSetArbitrary } from '../../../codemode/sdk/test/shared-root-tools.js';
import type { ToolDefinition } from '../../../codemode/tools/types.js';

// Tool sets the Python SDK tests render and hand to every interpreter here: one hostile set that pushes every
// rule of the renderer somewhere, and random ones from the schema arbitrary (a fixed seed).

export const HOSTILE_TEXT = [
  'plain',
  'ends with a quote"',
  'triple """ inside and \'\'\' too',
  'back\\slash at the end\\',
  'NUL\0 ESC\x1b DEL\x7f NEL\x85 VT\x0b FF\f SUB\x1a',
  'CR\ronly and CRLF\r\nand LF\n',
  'separators\u2028line\u2029paragraph',
  'lone \ud800 and \udfff surrogates',
  'bidi \u202e override \u2066 isolate',
  '# -*- coding: latin-1 -*-',
  '\\N{BULLET} \\x41 \\u0041 {braces} %s',
];

export const NEWER_THAN_13 = ['\u{10570}', '\u{1e290}', '\u{1e4d0}', '\u1c89'];

export const HOSTILE_NAMES = [
  ...NEWER_THAN_13.map((char) => `x${char}`),
  ...NEWER_THAN_13,
  '\ufb01le',
  '\uff46\uff4f\uff4f',
  'e\u0301',
  '\u00b5',
  '\u019bx',
  '\u0264',
  'class',
  'async',
  'await',
  'None',
  'True',
  'nonlocal',
  '__peg_parser__',
  'match',
  'case',
  'type',
  'print',
  '_',
  '__',
  '___',
  '__debug__',
  '__private',
  '__init__',
  '__class__',
  'self',
  'args',
  'tools',
  'Tools',
  'ToolCallError',
  'TypedDict',
  'Any',
  '\u1100',
  '\u1161',
  '\u0301x',
  '3d',
  '',
  ' ',
  'a-b',
  'with space',
  '\u3164',
  'a\u200d',
  'a\ufe00',
  '\u{1f600}',
  'x'.repeat(300),
];

export const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

/** A tool set built to break the Python SDK: every rule of the renderer is pushed somewhere in it. */
export function hostileToolSet(): ToolDefinition[] {
  const fields = Object.fromEntries(
    HOSTILE_NAMES.map((name, i) => [name, { type: 'string', description: HOSTILE_TEXT[i % HOSTILE_TEXT.length] }]),
  );
  const literalUnion = { oneOf: Array.from({ length: 5000 }, (_, i) => ({ const: `v${i}\u2028"` })) };
  const typeUnion = { oneOf: Array.from({ length: 5000 }, (_, i) => ({ type: 'array', items: { const: i } })) };
  const objectUnion = {
    oneOf: Array.from({ length: 300 }, (_, i) =>
      obj({ [HOSTILE_NAMES[i % HOSTILE_NAMES.length]!]: { type: 'integer' } }),
    ),
  };
  const tools: ToolDefinition[] = HOSTILE_NAMES.map((name, i) => ({
    name,
    description: HOSTILE_TEXT[i % HOSTILE_TEXT.length]!,
    parameters: obj({ [name]: { type: 'integer' }, ok: { type: 'boolean' } }, ['ok']),
    output: i % 2 === 0 ? obj(fields) : undefined,
  }));
  tools.push(
    { name: 'deep_lists', description: '250-deep', parameters: obj({ a: listChain(250) }), output: listChain(250) },
    {
      name: 'unions',
      description: '',
      parameters: obj({ literals: literalUnion, types: typeUnion, objects: objectUnion }),
    },
    { name: 'one_of_chain', description: '', parameters: obj({ a: oneOfChain(20_000) }) },
    {
      name: 'deep_objects',
      description: '',
      parameters: objectChain(400, 'class'),
      output: objectChain(400, '\u1161'),
    },
    {
      name: 'numbers',
      description: '',
      parameters: obj({ n: { enum: [1e300, -1e21, 2 ** 53 + 2, 0.1, -0, Number.MAX_VALUE] } }),
    },
    {
      name: 'broken',
      description: 'schema outside the subset',
      parameters: { type: 'object', properties: { a: { anyOf: [] } } },
    },
  );
  return tools;
}

export function randomToolSets(count: number): ToolDefinition[][] {
  return fc.sample(toolSetArbitrary({ maxTools: 6, maxDepth: 4 }), { numRuns: count, seed: 20_260_815 });
}

/** Objects a tool set holds more than once: each is written once, as one class, wherever it is met. */
const REPEATED_OBJECTS = [
  obj({ x: { type: 'integer' }, y: { type: 'integer' } }, ['x', 'y']),
  obj({ street: { type: 'string' }, city: { type: 'string' } }, ['city']),
  obj({ kind: { const: 'note' }, text: { type: 'string' } }, ['kind']),
];

/**
 * Definitions beside them: one with the structure of a repeated object, one that names it and holds a copy of it,
 * and one that reaches itself.
 */
const REPEATED_DEFINITIONS = {
  Point: REPEATED_OBJECTS[0],
  Box: obj({ min: { $ref: '#/$defs/Point' }, max: REPEATED_OBJECTS[0] }),
  Tree: obj({ at: REPEATED_OBJECTS[0], kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } }),
};

/**
 * A schema that holds the repeated objects at any depth, written out or by reference: as fields, list items,
 * union arms, and in objects of its own.
 */
const holdingRepeats: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    // A fresh copy each time: equal structures, never the same object.
    fc.constantFrom(...REPEATED_OBJECTS).map((schema) => structuredClone(schema)),
    fc.constantFrom(...Object.keys(REPEATED_DEFINITIONS)).map((name) => ({ $ref: `#/$defs/${name}` })),
    fc.constant({ type: 'string' }),
    fc
      .dictionary(fc.constantFrom('a', 'points', 'view', 'origin', 'z', 'Zed', '_b'), tie('node'), {
        minKeys: 1,
        maxKeys: 4,
      })
      .map((properties) => obj(properties)),
    tie('node').map((items) => ({ type: 'array', items })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((oneOf) => ({ oneOf })),
  ),
})).node;

/** A root holding repeats, with the definitions its references name. */
const repeatsRoot = (properties: Record<string, unknown>) => ({
  ...obj(properties),
  $defs: structuredClone(REPEATED_DEFINITIONS),
});

/**
 * Tool sets whose arguments and outputs meet the same objects in many places, in every order: the classes an
 * SDK writes for them must each come after every class they name.
 */
export function repeatedObjectToolSets(count: number): ToolDefinition[][] {
  const fields = (names: string[]) =>
    fc.dictionary(fc.constantFrom(...names), holdingRepeats, { minKeys: 1, maxKeys: 4 }).map(repeatsRoot);
  const tool = fc.record({
    name: fc.constantFrom('plot', 'ship', 'note', 'trace'),
    description: fc.constant(''),
    parameters: fields(['points', 'view', 'a', 'z']),
    output: fields(['result', 'b']),
  });
  return fc.sample(fc.uniqueArray(tool, { selector: (t) => t.name, minLength: 1, maxLength: 3 }), {
    numRuns: count,
    seed: 20_261_206,
  });
}

/** Tool sets that take and return a few roots over and over, under names that share words and names that collide. */
export function sharedRootToolSets(count: number): ToolDefinition[][] {
  return fc.sample(sharedRootToolSetArbitrary(), { numRuns: count, seed: 20_261_207 });
}

/** Tool sets whose tools, definitions and repeated objects would make one class name in several places. */
export function collidingBaseToolSets(count: number): ToolDefinition[][] {
  return fc.sample(collidingBaseToolSetArbitrary(), { numRuns: count, seed: 20_261_208 });
}
