import { escapeHtml } from '../text/markup.js';
import { escapeControls } from '../text/visible.js';

/**
 * HTML built only through the `html` tag: every interpolated value is escaped unless it is itself the result
 * of an `html` template (or a list of them). Text from a results file, a snapshot or a program can therefore
 * never become markup, whichever field it arrives in (a status, a hunk's line number, a count). Its invisible
 * and reordering characters (a byte order mark, a right-to-left override) show as escapes, as in the terminal.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null) return '';
  return escapeHtml(escapeControls(String(value), { keepTabs: true, keepLineBreaks: true }));
}

export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Trusted text the module itself wrote (a style sheet or script of its own), never input. */
export function trusted(text: string): Html {
  return new Html(text);
}
