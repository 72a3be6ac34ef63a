import { diffWordsWithSpace, type StructuredPatchHunk, structuredPatch } from 'diff';
import { COLOR, paint } from './paint.js';
import { MAX_LINE_CHARS, shortLine, unsplit } from './short-line.js';
import { escapeControls } from './visible.js';

/**
 * The one place where concord turns two texts into a diff a person reads: the gate's mismatches,
 * `concord review`, junit failures and the keyless model's script mismatches all render through here.
 */

export interface TextDiff {
  /** Names of the two sides, e.g. `snapshots/x/python/run_code.json (committed)`. */
  labels: { before: string; after: string };
  /** Whether JSON strings are shown broken after each `\n` escape, so the lines shown are not the file's lines. */
  jsonSplit: boolean;
  hunks: StructuredPatchHunk[];
}

export interface TextDiffOptions {
  /** Unchanged lines around each change. */
  context?: number;
  /**
   * The texts are JSON: show each string holding `\n` escapes broken after them (the texts themselves stay as they
   * are).
   */
  json?: boolean;
}

/** Words of unchanged text kept on each side of a change in a word-level line. */
const CONTEXT_WORDS = 4;
/** Beyond this many word edits a line pair is a rewrite: the `-`/`+` lines already say everything. */
const MAX_WORD_EDITS = 200;
/**
 * Characters of unchanged text kept on each side of a change in a `~` line: the few words of context, or
 * the part of one long word (`xxx…xxa` → `xxx…xxb`) next to where it changed.
 */
const CONTEXT_CHARS = 100;

/** The changed lines of `before` → `after`, as hunks; `renderDiff` turns them into text. */
export function textDiff(
  labels: TextDiff['labels'],
  before: string,
  after: string,
  options: TextDiffOptions = {},
): TextDiff {
  const shownBefore = options.json ? splitJsonStrings(before) : before;
  const shownAfter = options.json ? splitJsonStrings(after) : after;
  const jsonSplit = shownBefore !== before || shownAfter !== after;
  const context = options.context ?? 3;
  const patch = structuredPatch(labels.before, labels.after, shownBefore, shownAfter, undefined, undefined, {
    context,
    maxEditLength: MAX_LINE_EDITS,
  });
  return { labels, jsonSplit, hunks: patch?.hunks ?? rewriteHunks(shownBefore, shownAfter, context) };
}

/**
 * Line edits a diff may take before it is a rewrite. Finding the fewest edits costs the edits times the lines
 * (Myers); past this many, the lines both sides share at the start and the end are kept and the rest is shown removed
 * and added, in time linear in the texts: a value changed throughout says no more with a longer search.
 */
export const MAX_LINE_EDITS = 2_000;

/** The lines of a text as a unified diff counts them: a final line break ends the last line, it opens none. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** One hunk: the lines `before` and `after` share at their start and end kept as context, the middle replaced. */
function rewriteHunks(before: string, after: string, context: number): StructuredPatchHunk[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  if (start === a.length && start === b.length) return [];
  const from = Math.max(0, start - context);
  const tail = Math.min(end, context);
  const lines = [
    ...a.slice(from, start).map((line) => ` ${line}`),
    ...a.slice(start, a.length - end).map((line) => `-${line}`),
    ...b.slice(start, b.length - end).map((line) => `+${line}`),
    ...a.slice(a.length - end, a.length - end + tail).map((line) => ` ${line}`),
  ];
  const shared = start - from + tail;
  return [
    {
      oldStart: from + 1,
      oldLines: a.length - start - end + shared,
      newStart: from + 1,
      newLines: b.length - start - end + shared,
      lines,
    },
  ];
}

/**
 * The word-level change of one line pair, or undefined past MAX_WORD_EDITS edits (a rewrite: the lines say it all).
 * Bounded, the search costs at most that many edits times the words, however long the lines.
 */
export const boundedWordDiff = (before: string, after: string) =>
  diffWordsWithSpace(before, after, { maxEditLength: MAX_WORD_EDITS });

// A run shows one change in several places (the terminal, report.md, JUnit, the pull-request summary): each diff is
// rendered once per color, however many read it. A diff is never changed once made.
const rendered = new WeakMap<TextDiff, Map<boolean, string>>();

/**
 * A unified diff in which each changed line pair is followed by a `~` line naming just what changed in it,
 * `[-removed-]{+added+}` with a few words of context. Red and green when `color` is on.
 */
export function renderDiff(diff: TextDiff, color: boolean): string {
  const byColor = rendered.get(diff) ?? new Map<boolean, string>();
  rendered.set(diff, byColor);
  let text = byColor.get(color);
  if (text === undefined) {
    text = renderDiffOnce(diff, color);
    byColor.set(color, text);
  }
  return text;
}

function renderDiffOnce(diff: TextDiff, color: boolean): string {
  const out = [`--- ${diff.labels.before}`, `+++ ${diff.labels.after}`];
  if (diff.jsonSplit) {
    out.push(
      paint(
        color,
        COLOR.dim,
        '(JSON strings are shown broken after each \\n; the file keeps each on one line, and line numbers count the lines shown)',
      ),
    );
  }
  for (const hunk of diff.hunks) {
    // Unified diff quirk: an empty side names the line before it.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(paint(color, COLOR.cyan, `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`));
    let removed: string[] = [];
    let added: string[] = [];
    const closeBlock = () => {
      for (let i = 0; i < Math.min(removed.length, added.length); i++) {
        const line = wordLine(removed[i]!, added[i]!, color);
        if (line !== undefined) out.push(line);
      }
      removed = [];
      added = [];
    };
    for (const text of hunk.lines) {
      // Shown, never acted on: an escape sequence in a line would move the cursor or erase a line of the diff.
      const line = escapeControls(shortLine(text), { keepTabs: true });
      const mark = line[0];
      if (mark === '-') {
        if (added.length > 0) closeBlock();
        removed.push(escapeControls(text.slice(1), { keepTabs: true }));
        out.push(paint(color, COLOR.red, line));
      } else if (mark === '+') {
        added.push(escapeControls(text.slice(1), { keepTabs: true }));
        out.push(paint(color, COLOR.green, line));
      } else if (mark === '\\') {
        // "\ No newline at end of file" belongs to the line above it.
        out.push(line);
      } else {
        closeBlock();
        out.push(line);
      }
    }
    closeBlock();
  }
  return out.join('\n');
}

/**
 * The word-level change of one line pair, or nothing when the two lines share no words (but long lines that
 * share a start or an end: one long token each).
 */
function wordLine(before: string, after: string, color: boolean): string | undefined {
  const changes = boundedWordDiff(before, after);
  // biome-ignore lint/complexity/useOptionalChain: the check narrows changes for wordSegments below
  const sharesWords = changes !== undefined && changes.some((c) => !c.added && !c.removed && /\S/.test(c.value));
  const long = before.length + after.length > MAX_LINE_CHARS;
  if (!sharesWords && !long) return undefined;
  const segments = narrowed(sharesWords ? wordSegments(changes) : [{ removed: before, added: after }]);
  if (!segments.some((s) => s.same !== undefined && /\S/.test(s.same))) return undefined;
  const parts = segments.map((s, i) => {
    if (s.same !== undefined)
      return clip(elide(s.same, i > 0, i < segments.length - 1), i > 0, i < segments.length - 1);
    return (
      (s.removed ? paint(color, COLOR.red, `[-${shortLine(s.removed)}-]`) : '') +
      (s.added ? paint(color, COLOR.green, `{+${shortLine(s.added)}+}`) : '')
    );
  });
  return `~ ${parts.join('')}`;
}

/**
 * The segments with each long change narrowed to the characters that differ: a change inside one long word
 * (a token of a megabyte that differs in one place) keeps what both sides share as unchanged text.
 */
function narrowed(segments: WordSegment[]): WordSegment[] {
  const out: WordSegment[] = [];
  const same = (text: string) => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last?.same !== undefined) last.same += text;
    else out.push({ same: text, removed: '', added: '' });
  };
  for (const segment of segments) {
    const { removed, added } = segment;
    if (
      segment.same !== undefined ||
      removed.length + added.length <= MAX_LINE_CHARS ||
      removed === '' ||
      added === ''
    ) {
      if (segment.same !== undefined) same(segment.same);
      else out.push(segment);
      continue;
    }
    let prefix = 0;
    while (prefix < removed.length && prefix < added.length && removed[prefix] === added[prefix]) prefix++;
    prefix = unsplit(removed, prefix);
    let suffix = 0;
    while (
      suffix < removed.length - prefix &&
      suffix < added.length - prefix &&
      removed[removed.length - 1 - suffix] === added[added.length - 1 - suffix]
    )
      suffix++;
    // A low surrogate left at the start of the shared end would split a pair: give it back to the change.
    if (suffix > 0 && /[\udc00-\udfff]/.test(removed[removed.length - suffix]!)) suffix--;
    same(removed.slice(0, prefix));
    out.push({
      removed: removed.slice(prefix, removed.length - suffix),
      added: added.slice(prefix, added.length - suffix),
    });
    same(removed.slice(removed.length - suffix));
  }
  return out;
}

/** Unchanged text cut to CONTEXT_CHARS characters after the change before it and before the change after it. */
function clip(text: string, afterChange: boolean, beforeChange: boolean): string {
  const head = afterChange ? unsplit(text, CONTEXT_CHARS) : 0;
  const tail = beforeChange ? unsplit(text, text.length - CONTEXT_CHARS) : text.length;
  return tail - head <= 1 ? text : `${text.slice(0, head)}…${text.slice(tail)}`;
}

/** Unchanged text (`same`) or a change (`removed` → `added`). */
interface WordSegment {
  same?: string;
  removed: string;
  added: string;
}

/** Unchanged and changed runs; changes apart only by whitespace read as one (`[-works with-]{+talks to+}`). */
function wordSegments(changes: ReadonlyArray<{ value: string; added: boolean; removed: boolean }>): WordSegment[] {
  const segments: WordSegment[] = [];
  for (const change of changes) {
    if (!change.added && !change.removed) {
      segments.push({ same: change.value, removed: '', added: '' });
      continue;
    }
    let last = segments[segments.length - 1];
    const before = segments[segments.length - 2];
    if (last?.same !== undefined && !/\S/.test(last.same) && before !== undefined && before.same === undefined) {
      segments.pop();
      before.removed += last.same;
      before.added += last.same;
      last = before;
    }
    if (last === undefined || last.same !== undefined) segments.push((last = { removed: '', added: '' }));
    if (change.removed) last.removed += change.value;
    else last.added += change.value;
  }
  return segments;
}

/** Unchanged text cut down to a few words after the change before it and before the change after it. */
function elide(text: string, afterChange: boolean, beforeChange: boolean): string {
  // Even indexes hold words, odd ones the whitespace between them; the first and last word are empty when
  // the text starts or ends with whitespace, and do not count.
  const parts = text.split(/(\s+)/);
  const keep = 2 * CONTEXT_WORDS;
  const headLength = afterChange ? keep + (parts[0] === '' ? 2 : 0) : 0;
  const tailLength = beforeChange ? keep + (parts[parts.length - 1] === '' ? 2 : 0) : 0;
  if (parts.length <= headLength + tailLength + 1) return text;
  const head = parts.slice(0, headLength).join('');
  const tail = tailLength > 0 ? parts.slice(-tailLength).join('') : '';
  return `${head}…${tail}`;
}

/**
 * The text with a line break after each `\n` escape inside a JSON string (not after one that ends the
 * string), so that prose kept in one JSON string diffs sentence by sentence. Joining the lines back gives
 * the text. Scans tokens only; text that is not JSON comes out with a few extra breaks at worst.
 */
export function splitJsonStrings(text: string): string {
  const pieces: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!inString) {
      inString = c === '"';
    } else if (c === '"' || c === '\n') {
      inString = false;
    } else if (c === '\\') {
      i++;
      if (text[i] === 'n' && text[i + 1] !== '"') {
        pieces.push(text.slice(from, i + 1));
        from = i + 1;
      }
    }
  }
  pieces.push(text.slice(from));
  return pieces.join('\n');
}
