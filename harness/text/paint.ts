/** ANSI SGR colors used on a terminal. */
export const COLOR = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2 } as const;

/** `text` in a terminal color when `color` is on; unchanged otherwise. */
export const paint = (color: boolean, code: number, text: string): string =>
  color && text !== '' ? `\x1b[${code}m${text}\x1b[0m` : text;

/**
 * Color is for a terminal, and off whenever NO_COLOR is set (https://no-color.org); FORCE_COLOR asks for it where no
 * terminal is (a CI log that shows colors), `FORCE_COLOR=0` turns it off.
 */
export function colorWanted(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR) return false;
  const forced = env.FORCE_COLOR;
  if (forced !== undefined && forced !== '') return forced !== '0' && forced !== 'false';
  return Boolean(stream.isTTY);
}
