/**
 * The lines `next` adds to `old` when `next` only adds (every line of `old` is in `next`, in order), else
 * undefined: what a reviewer sees as a diff with no removed line.
 */
export function addedLines(old: string, next: string): string[] | undefined {
  const nextLines = next.split('\n');
  const added: string[] = [];
  let at = 0;
  for (const line of old.split('\n')) {
    while (at < nextLines.length && nextLines[at] !== line) added.push(nextLines[at++]!);
    if (at === nextLines.length) return undefined;
    at++;
  }
  return [...added, ...nextLines.slice(at)];
}
