/** ANSI SGR colors used on a terminal. */
export const COLOR = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2 } as const;

/** `text` in a terminal color when `color` is on; unchanged otherwise. */
export const paint = (color: boolean, code: number, text: string): string =>
  color && text !== '' ? `\x1b[${code}m${text}\x1b[0m` : text;

/** Color is for a terminal, and off whenever NO_COLOR is set (https://no-color.org). */
export function colorWanted(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}
