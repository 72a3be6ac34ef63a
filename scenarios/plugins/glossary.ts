import { fixturePlugin, objectArgs } from './define.js';

/**
 * A tool whose name starts with U+A7D1 LATIN SMALL LETTER CLOSED INSULAR G, added in Unicode 14.0: an
 * identifier for Node (Unicode 17) and CPython 3.11+, but not for the floor CPython 3.9 (Unicode 13.0).
 */
export const GLOSSARY_TOOL = '\u{A7D1}lossary_lookup';

const ENTRIES: Record<string, string> = {
  insular: 'Of the British Isles in the early Middle Ages.',
  glyph: 'A single written mark.',
};

export default fixturePlugin('fixture-glossary', [
  {
    name: GLOSSARY_TOOL,
    description: 'Looks a word up in the glossary.',
    parameters: {
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: { word: { type: 'string' }, meaning: { oneOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['word', 'meaning'],
      additionalProperties: false,
    },
    async execute(args) {
      const { word } = objectArgs(GLOSSARY_TOOL, args);
      if (typeof word !== 'string') throw new Error(`${GLOSSARY_TOOL}: word must be a string`);
      return { word, meaning: ENTRIES[word] ?? null };
    },
  },
]);
