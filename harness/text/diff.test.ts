import { describe, expect, it } from 'vitest';
import { renderDiff, splitJsonStrings, textDiff } from './diff.js';
import { colorWanted } from './paint.js';

const labels = { before: 'run_code.json (committed)', after: 'run_code.json (this run)' };
const ESC = '\x1b[';

const sentences = [
  'Run a program that works with the tools listed in the SDK section, and get back what it produced.',
  'The program is the body of an async function, so `await` works at the top level and `return` ends it.',
  'Call a tool as `await tools.name({...})` with a plain dict of arguments, or `await tools["name"]({...})` otherwise.',
  'Only `tools` and `ToolCallError` exist while the program runs; the classes in the SDK section are for reading.',
];
const wireJson = (description: string) =>
  JSON.stringify({ name: 'run_code', description, parameters: { type: 'object' } }, null, 2) + '\n';

const wordLines = (text: string) => text.split('\n').filter((line) => line.startsWith('~'));

describe('renderDiff', () => {
  it('names just the word that changed in a long JSON description', () => {
    const before = wireJson(sentences.join('\n'));
    const after = before.replace('Call a tool', 'Invoke a tool');
    expect(before.split('\n').some((line) => line.length > 400)).toBe(true);
    const shown = renderDiff(textDiff(labels, before, after, { json: true }), false);
    expect(wordLines(shown)).toEqual(['~ [-Call-]{+Invoke+} a tool as `await …']);
    // The -/+ pair is the one sentence that changed, not the whole JSON line.
    expect(shown.split('\n').filter((line) => /^[-+][^-+]/.test(line))).toEqual([
      `-${JSON.stringify(sentences[2]).slice(1, -1)}\\n`,
      `+${JSON.stringify(sentences[2]!.replace('Call', 'Invoke')).slice(1, -1)}\\n`,
    ]);
    expect(shown).toContain('JSON strings are shown broken after each \\n');
    expect(shown).not.toContain(ESC);
  });

  it('keeps a few words of context around a change in the middle of a long line', () => {
    const before = `text: ${sentences.join(' ')}\n`;
    const after = before.replace('top level', 'outer level');
    const shown = renderDiff(textDiff(labels, before, after), false);
    expect(wordLines(shown)).toEqual(['~ … `await` works at the [-top-]{+outer+} level and `return` ends …']);
    expect(shown).not.toContain('JSON strings are shown');
  });

  it('reads changes apart only by whitespace as one, and leaves rewritten lines to the -/+ lines', () => {
    const shown = renderDiff(
      textDiff(labels, 'a program that works with tools\nalpha beta\n', 'a program that talks to tools\ngamma delta\n'),
      false,
    );
    expect(wordLines(shown)).toEqual(['~ a program that [-works with-]{+talks to+} tools']);
  });

  it('colors removed words red and added words green only when color is on', () => {
    const before = 'key: the quick brown fox\n';
    const after = 'key: the slow brown fox\n';
    const colored = renderDiff(textDiff(labels, before, after), true);
    expect(colored).toContain(`~ key: the ${ESC}31m[-quick-]${ESC}0m${ESC}32m{+slow+}${ESC}0m brown fox`);
    expect(colored).toContain(`${ESC}31m-key: the quick brown fox${ESC}0m`);
    expect(renderDiff(textDiff(labels, before, after), false)).not.toContain(ESC);
  });

  it('shows control characters as escapes, so a line cannot erase another or move the cursor; tabs stay', () => {
    const before = 'def find(id):\n    """One order."""\n\tpass\n';
    const after = 'def find(id):\n    """One order.\u001b[2K\u001b[1A\u001b]0;title\u0007\r\u0085"""\n\tpass\n';
    const text = renderDiff(textDiff({ before: 'a', after: 'b' }, before, after), false);
    expect(text).toContain('+    """One order.\\u001b[2K\\u001b[1A\\u001b]0;title\\u0007\\u000d\\u0085"""');
    expect(text).toContain(' \tpass');
    // Nothing a terminal acts on is left but the line breaks between lines and the tab.
    expect(text.replace(/[\n\t]/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('shows invisible characters as escapes: a byte order mark, a zero-width space, a right-to-left override; visible letters stay', () => {
    const before = '// Refund an order.\nconst rate = "café 中";\n';
    const after = '\ufeff// Refund an order.\nconst rate = "caf\u200bé 中"; // \u202etluafed\u202c\n';
    const text = renderDiff(textDiff({ before: 'a', after: 'b' }, before, after), false);
    expect(text).toContain('+\\ufeff// Refund an order.');
    expect(text).toContain('~ {+\\ufeff+}// Refund an order.');
    expect(text).toContain('+const rate = "caf\\u200bé 中"; // \\u202etluafed\\u202c');
    expect(text).toContain('-const rate = "café 中";');
  });
});

describe('splitJsonStrings', () => {
  it('breaks only after \\n escapes inside strings, and the lines join back to the text', () => {
    const text = JSON.stringify({ a: 'one\ntwo\n', b: 'back\\nslash', 'c\nkey': 1 }, null, 2);
    const split = splitJsonStrings(text);
    expect(split.split('\n')).toEqual([
      '{',
      '  "a": "one\\n',
      'two\\n",',
      '  "b": "back\\\\nslash",',
      '  "c\\n',
      'key": 1',
      '}',
    ]);
    expect(split.replaceAll('\\n\n', '\\n')).toBe(text);
  });
});

describe('colorWanted', () => {
  it('is on for a terminal unless NO_COLOR is set', () => {
    expect(colorWanted({ isTTY: true }, {})).toBe(true);
    expect(colorWanted({ isTTY: false }, {})).toBe(false);
    expect(colorWanted({}, {})).toBe(false);
    expect(colorWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
  });

  it('is on where FORCE_COLOR asks for it (a CI log that shows colors), off with FORCE_COLOR=0 or NO_COLOR', () => {
    expect(colorWanted({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorWanted({}, { FORCE_COLOR: 'true' })).toBe(true);
    expect(colorWanted({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorWanted({ isTTY: false }, { FORCE_COLOR: '' })).toBe(false);
    expect(colorWanted({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });
});

describe('renderDiff on long lines', () => {
  const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const shownLines = (before: string, after: string) => renderDiff(textDiff(labels, before, after), false).split('\n');

  it('shows a line of 300 characters whole and one of 301 as its start and end around the count left out', () => {
    const at300 = shownLines(`a\n${'x'.repeat(298)}1\n`, `a\n${'x'.repeat(298)}2\n`);
    expect(at300).toContain(`-${'x'.repeat(298)}1`);
    const at301 = shownLines(`a\n${'x'.repeat(299)}1\n`, `a\n${'x'.repeat(299)}2\n`);
    expect(at301).toContain(`-${'x'.repeat(199)}…[21 characters]…${'x'.repeat(79)}1`);
    expect(at301).toContain(`+${'x'.repeat(199)}…[21 characters]…${'x'.repeat(79)}2`);
  });

  // A tool result of 600,000 characters on one line, changed in one place: at its end, in its middle, at its start.
  const blob = 'x'.repeat(300_000) + 'y'.repeat(300_000);
  const cases: Array<[string, number]> = [
    ['at its end', blob.length - 1],
    ['in its middle', 300_000],
    ['at its start', 0],
  ];
  it.each(cases)('keeps every line short and shows where a megabyte token changed %s', (_where, at) => {
    const changed = `${blob.slice(0, at)}!${blob.slice(at + 1)}`;
    for (const [before, after] of [
      [`value:\n  blob: ${blob}\n  id: 1\n`, `value:\n  blob: ${changed}\n  id: 1\n`],
      // One token alone on its line: no word in common, still a ~ line.
      [`${blob}\n`, `${changed}\n`],
    ] as const) {
      const lines = shownLines(before, after);
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(320);
      const [word] = wordLines(lines.join('\n'));
      expect(word).toContain(`[-${blob[at]}-]{+!+}`);
      expect(word!.length).toBeLessThanOrEqual(320);
    }
  });

  it('never cuts a character outside the Basic Multilingual Plane in two', () => {
    for (const pad of ['', 'a']) {
      const before = `${pad}${'😀'.repeat(400)}\n`;
      const lines = shownLines(before, before.replace(/😀\n$/, '😃\n'));
      expect(lines.filter((line) => LONE_SURROGATE.test(line))).toEqual([]);
      expect(wordLines(lines.join('\n'))[0]).toMatch(/\[-😀-\]\{\+😃\+\}$/);
    }
  });
});
