/** The columns a line of the gate keeps to on a terminal (in a log or a pipe a message stays whole). */
export const TEXT_COLUMNS = 100;

// Color codes take no column.
const ANSI = /\x1b\[[0-9;]*m/g;
const columnsOf = (text: string) => [...text.replace(ANSI, '')].length;
// Spaces a line may break at: not the one inside the count of an elided line's middle (`…[21 characters]…`).
const BREAK = / (?!characters\]…)/;

/**
 * `line` broken at spaces into lines of at most `width` columns; each line after the first keeps the first's
 * indentation and `hang` more. A word longer than a line (a path, a URL) is left whole rather than cut.
 */
export function wrapLine(line: string, width = TEXT_COLUMNS, hang = 2): string[] {
  if (columnsOf(line) <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const words = line.slice(indent.length).split(BREAK);
  const lines: string[] = [];
  let current = indent;
  let filled = false;
  for (const word of words) {
    const joined = filled ? `${current} ${word}` : `${current}${word}`;
    if (filled && columnsOf(joined) > width) {
      lines.push(current);
      current = `${indent}${' '.repeat(hang)}${word}`;
    } else {
      current = joined;
    }
    filled = true;
  }
  lines.push(current);
  return lines;
}

/** `text` with each of its lines wrapped as `wrapLine` does. */
export function wrapText(text: string, width = TEXT_COLUMNS, hang = 2): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width, hang))
    .join('\n');
}
