/**
 * A line of a text without its ending, and where it starts and ends (its ending included). A final line break ends
 * the last line: no empty line follows it.
 */
export interface TextLine {
  text: string;
  start: number;
  end: number;
}

/** A line and its ending: LF, CRLF or a lone CR, the endings CommonMark, Python and TypeScript all read. */
const LINE = /([^\r\n]*)(\r\n|\r|\n|$)/y;

/** The lines of `text` as a Markdown, Python or TypeScript reader sees them, whatever its line endings. */
export function textLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  LINE.lastIndex = 0;
  for (;;) {
    const start = LINE.lastIndex;
    const [whole, line] = LINE.exec(text) as unknown as [string, string];
    lines.push({ text: line, start, end: start + whole.length });
    if (LINE.lastIndex >= text.length) return lines;
  }
}

/**
 * A text without the byte order mark an editor may start a file with (a test that reads a file as UTF-8 keeps it): the
 * mark is no character of JSON, Python or Markdown.
 */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
