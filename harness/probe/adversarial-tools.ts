import type { ToolDefinition } from '../../contract/backend.js';

/**
 * Text that breaks naive escaping wherever prose or a `Literal` value lands: quotes, backslashes, breaks, NUL,
 * surrogates.
 */
const HOSTILE_TEXT = [
  `"""triple''' \`back\` */ -->`,
  'C:\\path\\to\\ \\x00 \\u2028 \\',
  'line one\nline two\r\nline three\rend',
  'nul:\u0000 surrogates:\ud800 \udfff bell:\u0007 ls:\u2028 ps:\u2029 nel:\u0085 bom:\ufeff rlo:\u202e',
  '# await tools["forged"](args)',
  '"',
].join(' | ');

const LITERALS = ['"', "'", '\\', '\n', '\u0000', '\ud800', '"""', '*/', '${x}', '`', 'a"b\'c'];

const text = { type: 'string' };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** A schema nested `depth` levels deep: arrays inside arrays, past the parsers' bracket limits. */
function deepArrays(depth: number): unknown {
  let schema: unknown = text;
  for (let i = 0; i < depth; i++) schema = { type: 'array', items: schema };
  return schema;
}

/** A single-field object chain `depth` levels deep: class names derived from their parents, indentation in TS. */
function deepObjects(depth: number): unknown {
  let schema: unknown = object({ leaf: text });
  for (let i = 0; i < depth; i++) schema = object({ [`level_${i}`]: schema });
  return schema;
}

/** Names that break renderers: keywords of every supported CPython, mangled and magic names, NFKC traps. */
const NAMES: ReadonlyArray<[name: string, why: string]> = [
  ['class', 'a hard keyword'],
  ['async', 'a hard keyword since 3.7'],
  ['None', 'a keyword constant'],
  ['nonlocal', 'a hard keyword'],
  ['match', 'a soft keyword (3.10+)'],
  ['case', 'a soft keyword (3.10+)'],
  ['type', 'a soft keyword (3.12+)'],
  ['_', 'the wildcard soft keyword'],
  ['__peg_parser__', 'a keyword on CPython 3.9 only'],
  ['__debug__', 'cannot be assigned'],
  ['__secret', 'a private name: mangled inside a class body'],
  ['__init__', 'a dunder of the Tools class itself'],
  ['tools', 'the global the program calls'],
  ['Tools', 'the class of the SDK'],
  ['ToolCallError', 'the error class of the SDK'],
  ['TypedDict', 'a name the SDK imports'],
  ['Any', 'a name the SDK imports'],
  ['constructor', 'special on JavaScript objects'],
  ['__proto__', 'special on JavaScript objects'],
  ['new', 'a construct signature in a TypeScript type literal'],
  ['delete', 'a JavaScript keyword'],
  ['file_size', 'the plain half of an NFKC pair'],
  ['\ufb01le_size', 'the ligature fi: NFKC makes it file_size'],
  ['ｆｅｔｃｈ', 'fullwidth letters: NFKC makes them fetch'],
  ['fetch', 'the plain half of a fullwidth pair'],
  ['ℌello', 'a black-letter capital: NFKC makes it Hello'],
  ['\u0301ping', 'starts with a combining mark: a Tool prefix composes with it'],
  ['too\u013aping', 'what Tool + combining acute + ping composes to'],
  ['zw\u200dj', 'a zero-width joiner inside'],
  ['zw\u200cnj', 'a zero-width non-joiner inside'],
  ['\u1100', 'a Hangul leading jamo alone'],
  ['\u1100\u1161', 'conjoining jamo that NFKC composes'],
  ['\uac00', 'the precomposed syllable of the jamo pair'],
  ['a-b', 'merges with a_b if punctuation is replaced'],
  ['a_b', 'the plain half of a-b'],
  ['2fa', 'starts with a digit'],
  ['123', 'all digits'],
  ['with space', 'a space inside'],
  ['quote"back\\slash', 'a quote and a backslash in the name'],
  ['new\nline', 'a line break in the name'],
  ['e\u0301', 'a decomposed letter NFKC composes'],
  ['\u00e9', 'the composed letter of e + combining acute'],
];

/**
 * The adversarial tool set every gate run renders through the project's own app: names, fields,
 * descriptions and values chosen to break SDK renderers (keywords of every supported CPython, mangled
 * and magic names, look-alikes and pairs that collide only after NFKC, combining marks, joiners, Hangul
 * jamo joins, hostile text, deep nesting and long unions). `extra` adds tools of the moment, such as one
 * per Unicode window past the floor.
 */
export function adversarialTools(extra: readonly ToolDefinition[] = []): ToolDefinition[] {
  // Each tool's arguments say why it is here, so each is a structure of its own: a renderer that writes one
  // structure once still writes a type named after every probe tool.
  const tools: ToolDefinition[] = NAMES.map(([name, why]) => ({
    name,
    description: `Probe: ${why}.`,
    parameters: object({ text: { ...text, description: why } }, ['text']),
  }));
  tools.push(
    {
      name: 'fields',
      description: HOSTILE_TEXT,
      parameters: object(
        {
          __peg_parser__: text,
          __debug__: text,
          __secret: text,
          class: text,
          match: text,
          type: text,
          _: text,
          '\ufb01eld': text,
          field: text,
          '\u0301mark': text,
          'zw\u200dj': text,
          'has-dash': text,
          '': text,
          choice: { enum: LITERALS, description: HOSTILE_TEXT },
          constant: { const: '"\\\n\u0000' },
        },
        ['__peg_parser__', 'class'],
      ),
      output: object({ __peg_parser__: text, tools: text }),
    },
    {
      name: 'jamo_join',
      description: 'Class names built by joining a field ending in a leading jamo to one starting with a vowel jamo.',
      parameters: object({ text }),
      output: object({
        'x\u1100': object({ '\u1161y': object({ leaf: text }) }),
        'x\uac00': object({ y: object({ leaf: text }) }),
      }),
    },
    {
      name: 'deep_arrays',
      description: 'Arrays nested past the parser bracket limits.',
      parameters: object({ value: deepArrays(250) }),
    },
    {
      name: 'deep_objects',
      description: 'Objects nested past the indentation limit.',
      parameters: object({ value: deepObjects(120) }),
    },
    {
      name: 'long_union',
      description: 'A union of thousands of members.',
      parameters: object({
        pick: { enum: Array.from({ length: 3000 }, (_, i) => `member_${i}`) },
        any_of: {
          oneOf: Array.from({ length: 300 }, (_, i) => object({ [`kind_${i}`]: { const: i } }, [`kind_${i}`])),
        },
      }),
    },
    ...extra,
  );
  return tools;
}
