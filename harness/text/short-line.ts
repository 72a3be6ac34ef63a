/**
 * Characters of a line shown whole. A longer one (a tool result of a megabyte on one line, a plugin's error of
 * 200 KB) shows its start and its end around a count of what is left out: a terminal stays readable, and a pull
 * request's summary stays within what GitHub shows.
 */
export const MAX_LINE_CHARS = 300;
const LINE_HEAD_CHARS = 200;
const LINE_TAIL_CHARS = 80;

/** `line` as shown: whole, or its start and end around how many characters are left out. */
export function shortLine(line: string): string {
  return elideLine(line, MAX_LINE_CHARS, LINE_HEAD_CHARS, LINE_TAIL_CHARS);
}

/**
 * `line` whole when it holds at most `max` characters, else its first `head` and last `tail` around how many are left
 * out (a report keeps longer lines than a terminal, and still bounds them).
 */
export function elideLine(
  line: string,
  max: number,
  head = Math.floor((max * 2) / 3),
  tail = Math.floor(max / 4),
): string {
  if (line.length <= max) return line;
  const from = unsplit(line, head);
  const to = unsplit(line, line.length - tail);
  return `${line.slice(0, from)}…[${(to - from).toLocaleString('en-US')} characters]…${line.slice(to)}`;
}

/** `at`, or one before it when a cut there would split a surrogate pair. */
export function unsplit(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** The lines of `text` (none for undefined), each as `shortLine` shows it. */
export function shortLines(text: string | undefined): string[] {
  return text === undefined ? [] : text.split('\n').map(shortLine);
}
