import type { CompileOutcome } from './types.js';

/**
 * What an interpreter said, without the file of its own standard library an ImportError ends with
 * (`cannot import name 'NotRequired' from 'typing' (/usr/lib/python3.9/typing.py)`): the same on every interpreter.
 */
export function rejectionMessage(outcome: Exclude<CompileOutcome, { ok: true }>): string {
  return outcome.name === 'ImportError' ? outcome.message.replace(/ \([^()]*\.py\)$/, '') : outcome.message;
}

/** `SyntaxError at line 3, column 14: invalid character '…' (U+A7D1)`, and the source line under a caret when known. */
export function describeRejection(outcome: Exclude<CompileOutcome, { ok: true }>, source?: string): string {
  const where =
    outcome.line === null
      ? ''
      : ` at line ${outcome.line}${outcome.column === null ? '' : `, column ${outcome.column}`}`;
  const head = `${outcome.name}${where}: ${rejectionMessage(outcome)}`;
  const text = outcome.line === null || source === undefined ? undefined : source.split('\n')[outcome.line - 1];
  if (text === undefined) return head;
  const caret =
    outcome.column === null
      ? ''
      : `\n${' '.repeat(String(outcome.line).length + 3 + Math.max(0, outcome.column - 1))}^`;
  return `${head}\n${outcome.line} | ${text}${caret}`;
}
