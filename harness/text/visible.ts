/** C0 and C1 control characters and DEL: a terminal acts on them (moves the cursor, erases lines, sets its title) instead of showing them. */
const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f';
const CONTROL = new RegExp(`[${CONTROL_CLASS}]`);
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, 'g');
const CONTROLS_BUT_TAB = new RegExp(`(?!\\t)[${CONTROL_CLASS}]`, 'g');

/** Whether `text` holds a control character (a name from an untrusted file that no folder or line may carry). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * `text` with every control character written as its `\uXXXX` escape, so text from a file concord did not
 * write (a backend's SDK, an artifact) shows what it holds and cannot hide a line from the reader.
 */
export function escapeControls(text: string, options: { keepTabs?: boolean } = {}): string {
  return text.replace(options.keepTabs ? CONTROLS_BUT_TAB : CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` with every control character shown as `?`: one column each, where a caret below must line up. */
export function maskControls(text: string): string {
  return text.replace(CONTROLS, '?');
}
