import type { GatedServices, JsonValue, RegisteredTool } from 'concord/contract';

const ENTRIES: Record<string, string> = {
  insular: 'Of the British Isles in the early Middle Ages.',
  glyph: 'A single written mark.',
};

/** A glossary lookup under `name`; `lang` is an optional argument (the upstream renderer marks it NotRequired). */
export function glossaryTool(name: string): RegisteredTool {
  return {
    name,
    description: 'Looks a word up in the glossary; the meaning is null for a word it does not hold.',
    parameters: {
      type: 'object',
      properties: { word: { type: 'string' }, lang: { type: 'string' } },
      required: ['word'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: { word: { type: 'string' }, meaning: { oneOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['word', 'meaning'],
      additionalProperties: false,
    },
    async execute(args: JsonValue) {
      const word = typeof args === 'object' && args !== null && !Array.isArray(args) ? args.word : undefined;
      if (typeof word !== 'string') throw new Error(`${name}: word must be a string`);
      return { word, meaning: ENTRIES[word] ?? null };
    },
  };
}

/** A cordis plugin: registers the glossary tool, named by `config.toolName` (default glossary_lookup). */
export default {
  name: 'glossary',
  inject: ['tools'],
  apply(ctx: Pick<GatedServices, 'tools'>, config: { toolName?: string } | undefined) {
    ctx.tools.register(glossaryTool(config?.toolName ?? 'glossary_lookup'));
  },
};
