// The notebook's tools. Notes live in this plugin's own state, made anew each time the app starts.
export const name = 'notebook';
export const inject = ['tools'];

/** A tool's result reaches the model as the JSON of its value. */
const asText = (_args, value) => [{ type: 'text', text: JSON.stringify(value) }];

const NOTE = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    text: { type: 'string' },
    due: { oneOf: [{ type: 'string' }, { type: 'null' }], description: 'The day the note is due, if it has one.' },
    archived: { type: 'boolean' },
  },
  required: ['id', 'text', 'due', 'archived'],
  additionalProperties: false,
};

export function apply(ctx) {
  const notes = [];
  ctx.tools.register({
    name: 'add_note',
    description: 'Writes a note into the notebook and answers with it.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' }, due: { type: 'string', description: 'A day, such as Tuesday.' } },
      required: ['text'],
    },
    output: { schema: NOTE, render: asText },
    async execute({ text, due }) {
      const note = { id: `note-${notes.length + 1}`, text, due: due ?? null, archived: false };
      notes.push(note);
      return note;
    },
  });
  ctx.tools.register({
    name: 'find_notes',
    description: 'Lists the notes whose text holds the given words, newest first.',
    parameters: { type: 'object', properties: { words: { type: 'string' } }, required: ['words'] },
    output: { schema: { type: 'array', items: NOTE }, render: asText },
    async execute({ words }) {
      return notes.filter((note) => note.text.includes(words)).reverse();
    },
  });
  ctx.tools.register({
    name: 'archive_note',
    description: 'Archives a note. A note can be archived once; archiving it again fails.',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    output: { schema: NOTE, render: asText },
    async execute({ id }) {
      const note = notes.find((candidate) => candidate.id === id);
      if (note === undefined) throw new Error(`no note ${id}`);
      if (note.archived) throw new Error(`note ${id} is archived already`);
      note.archived = true;
      return note;
    },
  });
}
