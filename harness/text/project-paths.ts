import { literalPattern } from './literal-pattern.js';

/**
 * `text` with every path inside the project written from its root (`src/plugins/notes.ts`): shorter, and the same
 * on every machine. The root itself becomes `.`.
 */
export function fromProjectRoot(text: string, root: string): string {
  const base = root.replace(/\/+$/, '');
  if (base === '') return text;
  return text.replace(new RegExp(`(?<![\\w./-])${literalPattern(base)}(?:/+|(?![^\\s'"\`:;,)\\]}]))`, 'g'), (match) =>
    match === base ? '.' : '',
  );
}
