/**
 * A tool's description as both SDKs write it: its author's text, with every fenced JSON example (a block opened
 * by ```json) that parses as JSON written on one line. Whitespace between JSON tokens means nothing, and a
 * pretty-printed example pays a token or two per line for it; the values, keys and their order stay as written.
 * A block that does not parse (comments, an ellipsis, a cut example) is left exactly as it is, as is any other
 * fence. Not a string: no description.
 */
export function toolDescription(description: unknown): string {
  if (typeof description !== 'string') return '';
  if (!description.includes('```')) return description;
  return description.replace(JSON_FENCE, (block, indent: string, opening: string, body: string, closing: string) => {
    try {
      JSON.parse(body);
    } catch {
      return block;
    }
    return `${indent}${opening}\n${indent}${withoutWhitespace(body)}\n${closing}`;
  });
}

/**
 * A fenced block tagged json, fences on lines of their own: the opening's indent and line, the body, the closing
 * line. The body is the shortest run to the next fence line, so one block never swallows the next.
 */
const JSON_FENCE = /^([ \t]*)(```json[ \t]*)\r?\n([\s\S]*?)\r?\n([ \t]*```[ \t]*)$/gm;

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
