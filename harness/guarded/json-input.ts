import { Ajv, type ErrorObject } from 'ajv';
import { escapeControls } from '../text/visible.js';

/** A JSON Schema (draft-07), as ajv takes it. */
export type JsonSchema = { [key: string]: unknown };

/** Where a value sits in a JSON document, written as `$.pairs[0].status`. */
export function jsonPath(pointer: string): string {
  if (pointer === '') return '$';
  return (
    '$' +
    pointer
      .slice(1)
      .split('/')
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((key) =>
        /^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`,
      )
      .join('')
  );
}

/** Text from an untrusted file as it may be printed: control characters (ESC, newlines) escaped, long text cut. */
export function printable(text: string, max = 200): string {
  const cut = text.length > max ? `${text.slice(0, max - 3)}...` : text;
  return escapeControls(cut);
}

/** A short picture of a value from an untrusted file. */
const shown = (value: unknown): string =>
  printable(value === undefined ? 'missing' : (JSON.stringify(value) ?? String(value)), 60);

function describe(error: ErrorObject): string {
  const where = jsonPath(error.instancePath);
  const got = shown(error.data);
  const described = (error.parentSchema as { description?: unknown } | undefined)?.description;
  switch (error.keyword) {
    case 'required':
      return `${where}.${(error.params as { missingProperty: string }).missingProperty} is missing`;
    case 'enum':
      return `${where} is ${got}, expected one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${where} is ${got}, expected ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    case 'type':
      return `${where} is ${got}, expected ${String((error.params as { type: string | string[] }).type).replace(',', ' or ')}`;
    case 'pattern':
      return `${where} is ${got}, expected ${typeof described === 'string' ? described : `a string matching ${(error.params as { pattern: string }).pattern}`}`;
    default:
      return `${where} is ${got}: it ${error.message ?? 'does not fit the format'}`;
  }
}

const ajv = new Ajv({ allErrors: false, verbose: true, $data: true, strictTypes: false });

/**
 * Compiles `schema` once; the checker returns the first place an untrusted document breaks it, as
 * `$.json.path is <value>, expected …`, or undefined when it fits.
 */
export function jsonChecker(schema: JsonSchema): (data: unknown) => string | undefined {
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? undefined : describe(validate.errors![0]!));
}

/**
 * Parses untrusted JSON text. A syntax error is described by its line and column only: V8's message quotes
 * the text around it, and the text may be a secret the file should never have held.
 */
export function parseJsonText(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    // A text that stops halfway is wrong where it ends.
    const at = position !== null ? Number(position[1]) : /end of JSON input/.test(message) ? text.length : undefined;
    if (at === undefined) return { problem: 'is not valid JSON' };
    const before = text.slice(0, at);
    return {
      problem: `is not valid JSON (line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`,
    };
  }
}
