import type { Language } from '../runtimes/seam/types.js';
import { textLines } from './text-lines.js';

/**
 * The words an info string may start with to name each language on the fence of the `tools:sdk` block
 * (compared without case): ` ```python `, ` ```py `, ` ```typescript `, ` ```ts `.
 */
export const SDK_FENCE_WORDS: Readonly<Record<Language, readonly string[]>> = {
  python: ['python', 'py'],
  typescript: ['typescript', 'ts'],
};

/** One fenced code block of a section, as CommonMark reads it. */
export interface SectionFence {
  /** 1-based line of the opening fence in the section. */
  line: number;
  /** The opening fence line as written, e.g. ` ```python `. */
  opening: string;
  /** The closing fence line as written; absent when the block runs to the end of the section. */
  closing?: string;
  /** The info string after the opening marker, trimmed (`python`, `ts title="sdk"`, or empty). */
  info: string;
  /** The language the info string's first word names, when it names one. */
  language?: Language;
  /** The code between the fences, each line ending in a line break. */
  body: string;
}

/** The SDK block of a `tools:sdk` section and the prose around it. */
export interface SdkBlock extends SectionFence {
  language: Language;
  closing: string;
  /** Everything before the opening fence line, exactly (empty when the section opens with the fence). */
  before: string;
  /** Everything after the closing fence line's line break, exactly (empty when the section ends with it). */
  after: string;
}

/**
 * A `tools:sdk` section read the way concord reads it: optional prose and exactly one fenced code block whose
 * info string names a language ({@link SDK_FENCE_WORDS}); the block is the SDK. Fences with any other info
 * string belong to the prose. `problem` says why there is no block: none, several, or one never closed.
 */
export type SdkSection =
  | { fences: SectionFence[]; block: SdkBlock; problem?: undefined }
  | { fences: SectionFence[]; block?: undefined; problem: string };

const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/;

function languageOf(info: string): Language | undefined {
  const word = info.split(/\s/, 1)[0]!.toLowerCase();
  return (Object.keys(SDK_FENCE_WORDS) as Language[]).find((language) => SDK_FENCE_WORDS[language].includes(word));
}

/**
 * `text` in a fenced block that no run of backticks inside it can close early (a description may hold fences of its
 * own): the fence is one backtick longer than the longest run, and at least three.
 */
export function fencedBlock(text: string, info: string): string {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** `line 3: ```python`, `line 9: ``` (no info string)`: a fence as a finding names it. */
export function describeFence(fence: SectionFence): string {
  const shown = fence.info === '' ? `${fence.opening.trim()} (no info string)` : fence.opening.trim();
  return `line ${fence.line}: ${shown}${fence.closing === undefined ? ' (never closed)' : ''}`;
}

/**
 * Every fenced code block of a Markdown text, in order (CommonMark's rules for fences; nothing else parsed). A text
 * written with CRLF or CR line endings reads as with LF: the bodies end their lines in LF, the offsets are the text's.
 */
export function sectionFences(text: string): Array<SectionFence & { start: number; end: number }> {
  const fences: Array<SectionFence & { start: number; end: number }> = [];
  const lines = textLines(text);
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]!.text);
    if (open === null) continue;
    const [, indent, marker, rest] = open as unknown as [string, string, string, string];
    // A backtick fence's info string holds no backtick (else the line is inline code).
    if (marker[0] === '`' && rest.includes('`')) continue;
    // A stop marker after the closing fence (```<end_code>), as code agents' prompts end a program, still closes it.
    const closes = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}(?:<[^<>]*>)?[ \\t]*$`);
    let close = i + 1;
    while (close < lines.length && !closes.test(lines[close]!.text)) close++;
    const strip = new RegExp(`^ {0,${indent.length}}`);
    const bodyLines = lines.slice(i + 1, close).map((line) => line.text.replace(strip, ''));
    const closed = close < lines.length;
    const info = rest.trim();
    const language = languageOf(info);
    fences.push({
      line: i + 1,
      opening: lines[i]!.text,
      ...(closed ? { closing: lines[close]!.text } : {}),
      info,
      ...(language !== undefined ? { language } : {}),
      body: bodyLines.map((line) => `${line}\n`).join(''),
      start: lines[i]!.start,
      end: closed ? lines[close]!.end : text.length,
    });
    i = close;
  }
  return fences;
}

/** Reads a `tools:sdk` section: its fences, and the one SDK block with the prose around it when there is one. */
export function readSdkSection(text: string): SdkSection {
  const found = sectionFences(text);
  const fences = found.map(({ start: _start, end: _end, ...fence }) => fence);
  const sdk = found.filter((f) => f.language !== undefined);
  const listed = fences.length === 0 ? 'no fences' : `fences found: ${fences.map(describeFence).join('; ')}`;
  const words = `${Object.values(SDK_FENCE_WORDS).flat().join('/')}`;
  if (sdk.length === 0)
    return { fences, problem: `has no fenced code block whose info string names its language (${words}); ${listed}` };
  if (sdk.length > 1)
    return {
      fences,
      problem: `has ${sdk.length} fenced code blocks that name a language, where the SDK must be exactly one; ${listed}`,
    };
  const [only] = sdk as [SectionFence & { start: number; end: number; language: Language }];
  if (only.closing === undefined) return { fences, problem: `has an SDK block that is never closed; ${listed}` };
  const { start, end, ...fence } = only;
  return { fences, block: { ...fence, closing: only.closing, before: text.slice(0, start), after: text.slice(end) } };
}
