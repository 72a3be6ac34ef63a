import type { LanguagePack } from './pack.js';

/**
 * The parts of an SDK block that the renderer writes itself, apart from the tool authors' descriptions:
 * the usage header (the comment lines before the first declaration) and the code with every comment and
 * string literal removed (descriptions live in docstrings, JSDoc and comments; enum values in strings).
 */
export interface SdkParts {
  header: string;
  code: string;
}

export function sdkParts(pack: LanguagePack, sdk: string): SdkParts {
  const lines = sdk.split('\n');
  const headerEnd = lines.findIndex((line) => line.trim() !== '' && !pack.trivia.commentLine.test(line));
  const header = lines.slice(0, headerEnd === -1 ? lines.length : headerEnd).join('\n');
  // Line breaks inside a removed block stay, so line-shaped markers still see line ends.
  const code = sdk.replace(pack.trivia.pattern, (removed) => removed.replace(/[^\n]/g, ''));
  return { header, code };
}
