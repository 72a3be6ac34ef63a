/** The fences of a JSON example: its opening line and its closing one. */
const OPENING = '```json';
const CLOSING = '```';

/**
 * A tool's description as both SDKs write it: its author's text, with every fenced JSON example (a block opened
 * by ```json) that parses as JSON written on one line. Whitespace between JSON tokens means nothing, and a
 * pretty-printed example pays a token or two per line for it; the values, keys and their order stay as written.
 * A block that does not parse (comments, an ellipsis, a cut example), is not closed, or is fenced for another
 * language is left exactly as it is. Not a string: no description.
 */
export function toolDescription(description: unknown): string {
  if (typeof description !== 'string') return '';
  if (!description.includes(OPENING)) return description;
  const lines = description.split('\n');
  // For each line, the next closing fence at or after it (-1: none), found in one pass from the end.
  const nextClosing = new Array<number>(lines.length + 1).fill(-1);
  for (let index = lines.length - 1; index >= 0; index--)
    nextClosing[index] = isFence(lines[index]!, CLOSING) ? index : nextClosing[index + 1]!;
  const written: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = lines[index]!;
    const close = isFence(opening, OPENING) ? nextClosing[index + 1]! : -1;
    const body = close === -1 ? '' : lines.slice(index + 1, close).join('\n');
    if (close === -1 || !parses(body)) {
      written.push(opening);
      continue;
    }
    const indent = opening.slice(0, opening.length - opening.trimStart().length);
    written.push(opening.trimEnd(), `${indent}${withoutWhitespace(body)}`, lines[close]!.trimEnd());
    index = close;
  }
  return written.join('\n');
}

/** Whether a line is `fence` alone on its line, indented or not, a CR at its end aside. */
function isFence(line: string, fence: string): boolean {
  return line.includes(fence) && line.trim() === fence;
}

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

/** JSON text without the whitespace between its tokens (text that parses, so strings are well closed). */
function withoutWhitespace(json: string): string {
  const parts: string[] = [];
  let start = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const unit = json.charCodeAt(i);
    if (inString) {
      if (unit === BACKSLASH) i++;
      else if (unit === QUOTE) inString = false;
    } else if (unit === QUOTE) {
      inString = true;
    } else if (unit === SPACE || unit === TAB || unit === LF || unit === CR) {
      parts.push(json.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(json.slice(start));
  return parts.join('');
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
