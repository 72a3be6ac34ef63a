import { toJsonText } from '../../runtimes/seam/json.js';
import type { JsonValue, RunResult } from '../../runtimes/seam/types.js';

/**
 * A `run_code` result as the model reads it in a `tool` message. One fixed layout (value, logs, error),
 * with every part present, so the same result always gives the same text:
 *
 *     value: {"total":3}
 *     logs:
 *       fetched 3 rows
 *     error: (none)
 */
export function formatRunResult(result: RunResult): string {
  // The seam's serializer, which takes a value of any depth (JSON.stringify recurses and runs out of stack).
  const lines = [`value: ${result.value === undefined ? '(none)' : toJsonText(result.value)}`];
  if (result.logs.length === 0) {
    lines.push('logs: (none)');
  } else {
    lines.push('logs:');
    for (const entry of result.logs) lines.push(indent(entry));
  }
  if (result.error === undefined) {
    lines.push('error: (none)');
  } else {
    const { kind, name, message } = result.error;
    lines.push(`error: ${kind}${name === undefined ? '' : ` ${name}`}: ${message.replaceAll('\n', '\n  ')}`);
  }
  return lines.join('\n');
}

/** A native tool's outcome as the model reads it: the JSON value, or the failure. */
export function formatToolOutcome(outcome: { value?: JsonValue; error?: string }): string {
  if (outcome.error !== undefined) return `error: ${outcome.error}`;
  return toJsonText(outcome.value ?? null);
}

function indent(entry: string): string {
  return '  ' + entry.replaceAll('\n', '\n  ');
}
