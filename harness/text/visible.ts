/** C0 and C1 control characters and DEL: a terminal acts on them (moves the cursor, erases lines, sets its title) instead of showing them. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROLS_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/**
 * `text` with every control character written as its `\uXXXX` escape, so text from a file concord did not
 * write (a backend's SDK, an artifact) shows what it holds and cannot hide a line from the reader.
 */
export function escapeControls(text: string, options: { keepTabs?: boolean } = {}): string {
  return text.replace(options.keepTabs ? CONTROLS_BUT_TAB : CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
