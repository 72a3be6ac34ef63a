import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { shortLines } from '../text/short-line.js';
import { isFailing, type PairResult } from './outcome.js';

/** A failing pair and the scenario file it comes from. */
export interface AnnotatedPair {
  pair: PairResult;
  /** Absolute path of the scenario file. */
  file: string;
}

/** GitHub Actions is running this: `GITHUB_ACTIONS=true`. */
export const onGithubActions = (env: NodeJS.ProcessEnv = process.env): boolean => env.GITHUB_ACTIONS === 'true';

/**
 * The line a failing pair is annotated at: the line of the `runtimes:` key naming its runtime (or the list
 * item below it), else the scenario's `name:` line, else 1.
 */
export function pairLine(text: string, runtime: string): number {
  const lines = text.split(/\r?\n/);
  const word = new RegExp(`(^|[\\s\\[,'"])${runtime.replace(/[-]/g, '\\-')}($|[\\s\\],'"])`);
  const key = lines.findIndex((l) => /^runtimes\s*:/.test(l));
  if (key >= 0) {
    if (word.test(lines[key]!.replace(/^runtimes\s*:/, ''))) return key + 1;
    for (let i = key + 1; i < lines.length && /^\s+(-|#)|^\s*$/.test(lines[i]!); i++)
      if (word.test(lines[i]!)) return i + 1;
  }
  const name = lines.findIndex((l) => /^name\s*:/.test(l));
  return name >= 0 ? name + 1 : 1;
}

/** GitHub's workflow-command escaping: properties and message must not break the `::error …::` line. */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * Error annotations GitHub shows of one step; it drops the rest without a word (50 a job, in all steps).
 */
export const ANNOTATIONS_PER_STEP = 10;

/**
 * One `::error file=…,line=…::` line per failing pair, at its scenario file (relative to the workspace) and
 * the line that declares its runtime, so the pull request shows the failure beside the scenario. Past
 * ANNOTATIONS_PER_STEP failing pairs, the last annotation GitHub shows names the pairs it stands for instead,
 * so none is missing without a word.
 */
export async function githubAnnotations(
  pairs: readonly AnnotatedPair[],
  workspace: string = process.env.GITHUB_WORKSPACE ?? process.cwd(),
): Promise<string[]> {
  const failing = pairs.filter(({ pair }) => isFailing(pair.status));
  const shown = failing.length > ANNOTATIONS_PER_STEP ? failing.slice(0, ANNOTATIONS_PER_STEP - 1) : failing;
  const lines: string[] = [];
  for (const { pair, file } of shown) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const path = relative(workspace, file).split(sep).join('/');
    const changed = pair.verdicts.filter((v) => v.status !== 'same').map((v) => `${v.status}: snapshots/${v.path}`);
    const message = [shortLines(pair.reason)[0], ...changed].filter(Boolean).join('\n') || pair.status;
    lines.push(
      `::error file=${escapeProperty(path)},line=${pairLine(text, pair.runtime)},title=${escapeProperty(`concord: ${pair.scenario} × ${pair.runtime} ${pair.status}`)}::${escapeData(message)}`,
    );
  }
  const rest = failing.slice(shown.length);
  if (rest.length > 0) {
    const names = rest.map(({ pair }) => `${pair.scenario} × ${pair.runtime} ${pair.status}`).join('\n');
    const why = `GitHub shows ${ANNOTATIONS_PER_STEP} annotations of a step; the gate's log and the step summary list every failing pair.`;
    lines.push(
      `::error title=${escapeProperty(`concord: ${rest.length} more failing pair(s)`)}::${escapeData(`${names}\n${why}`)}`,
    );
  }
  return lines;
}
