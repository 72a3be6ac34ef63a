import { ReviewInterrupted } from './interrupted.js';
import type { Decision } from './review.js';
import type { ReviewGroup } from './review-groups.js';

/** What a key can decide: a decision for the change shown, or to stop with every undecided change pending. */
export type KeyDecision = Decision | 'quit';

/** Lines of a change shown before `d` shows the rest. */
export const SHORT_DIFF_LINES = 40;

export const REVIEW_KEYS_HELP = [
  'keys (no Enter needed):',
  '  a  accept this change            A  accept it and every change after it',
  '  r  reject this change            R  reject it and every change after it',
  '  s  skip it (it stays pending)    S  skip it and every change after it',
  '  d  show the whole diff, or the short one again',
  '  q  quit: every change not yet decided stays pending',
  '  ?  this help',
].join('\n');

const ONE: Readonly<Record<string, Decision>> = { a: 'accept', r: 'reject', s: 'skip' };
const ALL: Readonly<Record<string, Decision>> = { A: 'accept', R: 'reject', S: 'skip' };

/** The text of a change cut to its first `SHORT_DIFF_LINES` lines, saying how many more `d` shows. */
export function shortView(full: string): string {
  const lines = full.split('\n');
  if (lines.length <= SHORT_DIFF_LINES) return full;
  return [
    ...lines.slice(0, SHORT_DIFF_LINES),
    `… ${lines.length - SHORT_DIFF_LINES} more line(s): press d to see the whole diff`,
  ].join('\n');
}

/**
 * Shows the prompt and reads one key press from a terminal in raw mode (no Enter); Ctrl-C interrupts the
 * review. Raw mode is on before the prompt is shown: a Ctrl-C typed as soon as the prompt appears is a key
 * here, not a SIGINT from the terminal.
 */
function readKey(input: NodeJS.ReadStream, prompt: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    input.setRawMode(true);
    input.resume();
    prompt();
    input.once('data', (chunk: Buffer) => {
      input.setRawMode(false);
      input.pause();
      const key = chunk.toString('utf8');
      if (key === '\x03') reject(new ReviewInterrupted());
      else resolve(key === '\x04' ? 'q' : key.slice(0, 1));
    });
  });
}

/**
 * Decides each change from single keys on a terminal, as insta's review does: it shows the change (cut
 * short; `d` toggles the whole diff), then reads one key. `A`, `R` or `S` decide the change shown and every
 * later one without asking again; `q` stops, leaving every undecided change pending.
 */
export function terminalKeys(options: {
  input: NodeJS.ReadStream;
  color: boolean;
  out(text: string): void;
}): (group: ReviewGroup) => Promise<KeyDecision> {
  let rest: Decision | undefined;
  return async (group) => {
    if (rest !== undefined) return rest;
    const full = group.show(options.color);
    let whole = false;
    options.out(shortView(full));
    const what =
      group.items.length > 1
        ? `change ${group.number} (${group.items.length} files)`
        : `snapshots/${group.items[0]!.path} (${group.items[0]!.status})`;
    for (;;) {
      const key = await readKey(options.input, () =>
        options.out(`${what}: [a]ccept [r]eject [s]kip, A/R/S for all that remain, [d]iff, [q]uit, [?] help`),
      );
      if (Object.hasOwn(ONE, key)) return ONE[key]!;
      if (Object.hasOwn(ALL, key)) return (rest = ALL[key]!);
      if (key === 'q') return 'quit';
      if (key === 'd') {
        whole = !whole;
        options.out(whole ? full : shortView(full));
      } else if (key === '?') {
        options.out(REVIEW_KEYS_HELP);
      } else {
        options.out(`${JSON.stringify(key)} is no key of review; press ? for the keys`);
      }
    }
  };
}
