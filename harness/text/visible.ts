/**
 * C0 and C1 control characters and DEL: a terminal acts on them (moves the cursor, erases lines, sets its title)
 * instead of showing them. Then the format characters a reader cannot see: the soft hyphen, zero-width
 * characters and joiners, the byte order mark, line and paragraph separators, and the bidirectional controls
 * that show a line in another order than it is read (U+202E shows `abc` as `cba`).
 */
const CONTROL_CLASS = [
  '\\u0000-\\u001f\\u007f-\\u009f',
  '\\u00ad\\u061c\\u180e',
  '\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f',
  '\\ufeff\\ufff9-\\ufffb',
].join('');
const CONTROL = new RegExp(`[${CONTROL_CLASS}]`);
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, 'g');

/**
 * Whether `text` holds a control or invisible character (a name from an untrusted file that no folder or line may
 * carry).
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * `text` with every control and invisible character written as its `\uXXXX` escape, so text from a file concord
 * did not write (a backend's SDK, an artifact) shows what it holds and cannot hide or reorder a line.
 */
export function escapeControls(text: string, options: { keepTabs?: boolean; keepLineBreaks?: boolean } = {}): string {
  return text.replace(CONTROLS, (c) =>
    (c === '\t' && options.keepTabs) || (c === '\n' && options.keepLineBreaks)
      ? c
      : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `text` with every control and invisible character shown as `?`: one column each, where a caret below must line up.
 */
export function maskControls(text: string): string {
  return text.replace(CONTROLS, '?');
}
