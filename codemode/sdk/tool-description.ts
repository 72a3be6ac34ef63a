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
  let at = description.indexOf(OPENING);
  if (at === -1) return description;
  const parts: string[] = [];
  let copied = 0;
  const closings = new ClosingFences(description);
  while (at !== -1) {
    const opening = lineAt(description, at);
    const closing = isFence(opening.text, OPENING) ? closings.after(opening.end) : undefined;
    const body = closing === undefined ? '' : description.slice(opening.end + 1, closing.start - 1);
    if (closing !== undefined && parses(body)) {
      const indent = opening.text.slice(0, opening.text.length - opening.text.trimStart().length);
      parts.push(
        description.slice(copied, opening.start),
        `${opening.text.trimEnd()}\n${indent}${withoutWhitespace(body)}\n${closing.text.trimEnd()}`,
      );
      copied = closing.end;
    }
    // After a block that stays as written, an opening inside it may still start one.
    at = description.indexOf(OPENING, Math.max(copied, opening.end));
  }
  parts.push(description.slice(copied));
  return parts.join('');
}

interface Line {
  /** Where it starts, and where its line feed is (or the text ends). */
  start: number;
  end: number;
  text: string;
}

/** The line that holds the character at `index`. */
function lineAt(text: string, index: number): Line {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const feed = text.indexOf('\n', index);
  const end = feed === -1 ? text.length : feed;
  return { start, end, text: text.slice(start, end) };
}

/**
 * The closing fences of a text, found from increasing places: the one found last is remembered, so every opening
 * fence before it is answered without reading the text again, and the whole text is read once.
 */
class ClosingFences {
  readonly #text: string;
  #searchedFrom = Number.POSITIVE_INFINITY;
  #found: Line | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  /** The first line after the line feed at `from` that is a closing fence, if any. */
  after(from: number): Line | undefined {
    if (from >= this.#searchedFrom && (this.#found === undefined || from < this.#found.start)) return this.#found;
    this.#searchedFrom = from;
    for (let at = this.#text.indexOf(CLOSING, from); at !== -1; ) {
      const line = lineAt(this.#text, at);
      if (line.start > from && isFence(line.text, CLOSING)) return (this.#found = line);
      at = this.#text.indexOf(CLOSING, line.end);
    }
    return (this.#found = undefined);
  }
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
