import type { Language } from '../../../runtimes/seam/types.js';

/**
 * The parts of an SDK block that the renderer writes itself, apart from the tool authors' descriptions:
 * the usage header (the comment lines before the first declaration) and the code with every comment and
 * string literal removed (descriptions live in docstrings, JSDoc and comments; enum values in strings).
 */
export interface SdkParts {
  header: string;
  code: string;
}

const COMMENT_LINE: Readonly<Record<Language, RegExp>> = { python: /^\s*#/, typescript: /^\s*\/\// };

// Line breaks inside a removed block stay, so line-shaped markers still see line ends.
// A triple-quoted string ends at the first unescaped run of its quotes: `\"""` inside it does not end it.
const PYTHON_TRIVIA =
  /[rRbBuUfF]{0,2}(?:"""(?:\\[\s\S]|(?!""")[^\\])*"""|'''(?:\\[\s\S]|(?!''')[^\\])*'''|"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*')|#[^\n]*/g;
const TYPESCRIPT_TRIVIA =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*'|`(?:\\[\s\S]|[^`\\])*`/g;

export function sdkParts(language: Language, sdk: string): SdkParts {
  const lines = sdk.split('\n');
  const headerEnd = lines.findIndex((line) => line.trim() !== '' && !COMMENT_LINE[language].test(line));
  const header = lines.slice(0, headerEnd === -1 ? lines.length : headerEnd).join('\n');
  const trivia = language === 'python' ? PYTHON_TRIVIA : TYPESCRIPT_TRIVIA;
  const code = sdk.replace(trivia, (removed) => removed.replace(/[^\n]/g, ''));
  return { header, code };
}

/** Every real comment of a Python block (not one inside a string), with where it starts (1-based). */
export function pythonComments(sdk: string): Array<{ line: number; column: number; text: string }> {
  const comments: Array<{ line: number; column: number; text: string }> = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const match of sdk.matchAll(PYTHON_TRIVIA)) {
    // Count the line breaks up to this match once, so the walk stays linear in the block's length.
    for (let i = scanned; i < match.index; i++) {
      if (sdk.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    scanned = match.index;
    if (match[0].startsWith('#')) comments.push({ line, column: match.index - lineStart + 1, text: match[0] });
  }
  return comments;
}
