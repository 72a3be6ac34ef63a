import { renderDiff, textDiff } from '../text/diff.js';

export interface Difference {
  /** JSON-style path of the first differing value, e.g. `messages[1].toolCalls[0].arguments.code`. */
  path: string;
  expected: unknown;
  actual: unknown;
}

/** The first place where `actual` departs from `expected`, walking objects in the expected key order. */
export function firstDifference(expected: unknown, actual: unknown, path = ''): Difference | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length; i++) {
      if (i >= expected.length)
        return { path: `${path}[${i}]`, expected: '(nothing: the script ends here)', actual: actual[i] };
      if (i >= actual.length) return { path: `${path}[${i}]`, expected: expected[i], actual: '(missing)' };
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((k) => !Object.hasOwn(expected, k))];
    for (const key of keys) {
      const at = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      if (!Object.hasOwn(actual, key)) return { path: at, expected: expected[key], actual: '(missing)' };
      if (!Object.hasOwn(expected, key)) return { path: at, expected: '(absent)', actual: actual[key] };
      const found = firstDifference(expected[key], actual[key], at);
      if (found) return found;
    }
    return undefined;
  }
  return { path: path || '(root)', expected, actual };
}

/** A difference as readable text: a unified diff for strings, both values otherwise. */
export function formatDifference(d: Difference): string {
  if (
    typeof d.expected === 'string' &&
    typeof d.actual === 'string' &&
    (d.expected.includes('\n') || d.actual.includes('\n'))
  ) {
    const diff = textDiff({ before: 'script', after: 'request' }, withNewline(d.expected), withNewline(d.actual), {
      context: 2,
    });
    return `first difference at ${d.path}:\n${renderDiff(diff, false)}`;
  }
  return `first difference at ${d.path}:\n  - script:  ${JSON.stringify(d.expected)}\n  + request: ${JSON.stringify(d.actual)}`;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : text + '\n';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
