/**
 * Text from a results file or a scenario (folder, scenario and runtime names, reasons, paths) as GitHub
 * markdown shows it: it can open no emphasis, link, image, HTML tag, entity or code span, and end no table
 * cell, whatever characters it holds.
 */
export function plain(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\\`*_[\]<>|~&!#]/g, (c) => `\\${c}`);
}

/** A code span that no backtick run inside `text` can close and no `|` can cut, also inside a table cell. */
export function codeSpan(text: string): string {
  const line = text.replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line.replace(/\|/g, '\\|')}${pad}${fence}`;
}
