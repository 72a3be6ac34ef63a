import type { GatedServices, JsonValue, RegisteredTool } from 'concord/contract';

const ENTRIES: Record<string, string> = {
  insular: 'Of the British Isles in the early Middle Ages.',
  glyph: 'A single written mark.',
  gloss: 'A note that explains a word.',
};

const text = { type: 'string' };

const argument = (args: JsonValue, key: string): JsonValue | undefined =>
  typeof args === 'object' && args !== null && !Array.isArray(args) ? args[key] : undefined;

/** Four tools of a glossary: one of them named with a dash, as an HTTP API's operation may be. */
export const GLOSSARY_TOOLS: RegisteredTool[] = [
  {
    name: 'glossary_lookup',
    description: 'Looks a word up; the meaning is null for a word the glossary does not hold.',
    parameters: {
      type: 'object',
      properties: { word: text, lang: { ...text, description: 'The language of the word (default English).' } },
      required: ['word'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: { word: text, meaning: { oneOf: [text, { type: 'null' }] } },
      required: ['word', 'meaning'],
      additionalProperties: false,
    },
    async execute(args) {
      const word = argument(args, 'word');
      if (typeof word !== 'string') throw new Error('glossary_lookup: word must be a string');
      return { word, meaning: ENTRIES[word] ?? null };
    },
  },
  {
    name: 'glossary_search',
    description: 'Lists the words that start with a prefix, at most `limit` of them.',
    parameters: {
      type: 'object',
      properties: { prefix: text, limit: { type: 'integer' } },
      required: ['prefix'],
      additionalProperties: false,
    },
    output: { type: 'object', properties: { words: { type: 'array', items: text } }, required: ['words'] },
    async execute(args) {
      const prefix = argument(args, 'prefix');
      const limit = argument(args, 'limit');
      const words = Object.keys(ENTRIES).filter((w) => typeof prefix === 'string' && w.startsWith(prefix));
      return { words: typeof limit === 'number' ? words.slice(0, limit) : words };
    },
  },
  {
    name: 'glossary_define',
    description: 'Adds a word and its meaning to the glossary for this conversation.',
    parameters: {
      type: 'object',
      properties: { word: text, meaning: text },
      required: ['word', 'meaning'],
      additionalProperties: false,
    },
    output: { type: 'object', properties: { added: { type: 'boolean' } }, required: ['added'] },
    async execute() {
      return { added: true };
    },
  },
  {
    name: 'glossary-export',
    description: 'Writes the whole glossary as CSV or JSON text.',
    parameters: {
      type: 'object',
      properties: { format: { enum: ['csv', 'json'] } },
      required: ['format'],
      additionalProperties: false,
    },
    output: { type: 'object', properties: { text }, required: ['text'] },
    async execute(args) {
      const format = argument(args, 'format');
      const rows = Object.entries(ENTRIES);
      return {
        text:
          format === 'csv' ? rows.map(([w, m]) => `${w},"${m}"`).join('\n') : JSON.stringify(Object.fromEntries(rows)),
      };
    },
  },
];

/** A cordis plugin: registers the glossary's tools. */
export default {
  name: 'glossary',
  inject: ['tools'],
  apply(ctx: Pick<GatedServices, 'tools'>) {
    for (const tool of GLOSSARY_TOOLS) ctx.tools.register(tool);
  },
};
