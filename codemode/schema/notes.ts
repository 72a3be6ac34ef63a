/**
 * The constraints of a schema node a model writing a call benefits from, as short phrases for the doc
 * comment of the field: they never change the shape, but they say which values the tool accepts.
 */

/** Longest rendering of a `default` kept in a note; a longer one is cut with an ellipsis. */
const MAX_DEFAULT_LENGTH = 80;

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

interface Bound {
  value: number;
  strict: boolean;
}

/**
 * The bound of one side. An inclusive bound at `edge`, that side's end of the integers JSON carries exactly
 * (−(2^53 − 1) for a minimum, 2^53 − 1 for a maximum, which validators such as zod's `.int()` write on every
 * integer), excludes no value a model would send: that note says nothing and is left out.
 */
function bound(inclusive: unknown, exclusive: unknown, edge: number): Bound | undefined {
  if (finite(exclusive)) return { value: exclusive, strict: true };
  // Draft-04 spells an exclusive bound as `exclusiveMinimum: true` beside `minimum`.
  if (finite(inclusive) && !(inclusive === edge && exclusive !== true))
    return { value: inclusive, strict: exclusive === true };
  return undefined;
}

/** `lo ≤ subject ≤ hi`, `subject > lo` or `subject ≤ hi`, from inclusive and exclusive bounds. */
function range(
  subject: string,
  min: unknown,
  max: unknown,
  exclusiveMin?: unknown,
  exclusiveMax?: unknown,
): string | undefined {
  const low = bound(min, exclusiveMin, -Number.MAX_SAFE_INTEGER);
  const high = bound(max, exclusiveMax, Number.MAX_SAFE_INTEGER);
  if (low !== undefined && high !== undefined) {
    return `${low.value} ${low.strict ? '<' : '≤'} ${subject} ${high.strict ? '<' : '≤'} ${high.value}`;
  }
  if (low !== undefined) return `${subject} ${low.strict ? '>' : '≥'} ${low.value}`;
  if (high !== undefined) return `${subject} ${high.strict ? '<' : '≤'} ${high.value}`;
  return undefined;
}

function jsonText(value: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return text.length > MAX_DEFAULT_LENGTH ? `${text.slice(0, MAX_DEFAULT_LENGTH)}…` : text;
}

/** The notes for one node, in a fixed order whatever the order of its keys. */
export function schemaNotes(node: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (node.deprecated === true) notes.push('deprecated');
  if (node.readOnly === true) notes.push('read-only');
  if (node.writeOnly === true) notes.push('write-only');
  if (typeof node.format === 'string' && node.format !== '') notes.push(`format: ${node.format}`);
  const value = range('value', node.minimum, node.maximum, node.exclusiveMinimum, node.exclusiveMaximum);
  if (value !== undefined) notes.push(value);
  if (finite(node.multipleOf)) notes.push(`multiple of ${node.multipleOf}`);
  const length = range('length', node.minLength, node.maxLength);
  if (length !== undefined) notes.push(length);
  if (typeof node.pattern === 'string') notes.push(`pattern: ${node.pattern}`);
  const items = range('items', node.minItems, node.maxItems);
  if (items !== undefined) notes.push(items);
  if (node.uniqueItems === true) notes.push('unique items');
  const keys = range('keys', node.minProperties, node.maxProperties);
  if (keys !== undefined) notes.push(keys);
  if (Object.hasOwn(node, 'default')) {
    const text = jsonText(node.default);
    if (text !== undefined) notes.push(`default: ${text}`);
  }
  return notes;
}

/** Letters and digits only, lower case: `Pet Type`, `pet_type` and `PetType` read the same. */
function nameKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Keywords the doc text reads; most nodes have none of them, and then cost nothing here. */
const DOC_KEYWORDS: ReadonlySet<string> = new Set([
  'description',
  'title',
  'deprecated',
  'readOnly',
  'writeOnly',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'default',
]);

/**
 * The doc text of a node: its description (else its title), then its notes on a line of their own. A title
 * that only restates `name` (the field or definition it stands under, as generated titles do) says nothing.
 */
export function schemaDocText(node: Record<string, unknown>, name?: string): string {
  let documented = false;
  for (const key in node) {
    if (DOC_KEYWORDS.has(key)) {
      documented = true;
      break;
    }
  }
  if (!documented) return '';
  const title =
    typeof node.title === 'string' && (name === undefined || nameKey(node.title) !== nameKey(name)) ? node.title : '';
  const own = typeof node.description === 'string' && node.description !== '' ? node.description : title;
  const notes = schemaNotes(node);
  if (notes.length === 0) return own;
  return own === '' ? notes.join('; ') : `${own}\n${notes.join('; ')}`;
}
