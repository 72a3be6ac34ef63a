import { literalPattern } from '../text/literal-pattern.js';
import { escapeHtml } from '../text/markup.js';

/**
 * Secrets this process holds (the model key, credentials in the endpoint URL, the environment's secrets) and the one
 * scrubber every printed line and every written file passes through. A secret is matched in the forms it commonly
 * takes when something echoes it back: as given, escaped as a JSON or YAML string and as HTML or XML text, line by line
 * when it has several, upper or lower case, URL-encoded, and base64 (standard and URL-safe alphabet, at any of the
 * three byte alignments inside a longer encoded text).
 */

export const REDACTED = '[redacted]';

/** Forms shorter than this are not scrubbed: they would blank ordinary words. */
const MIN_FORM = 6;

const held = new Set<string>();
let pattern: RegExp | undefined;
let bytePattern: RegExp | undefined;

/** A line of a multi-line secret shorter than this is a header or a word (`-----END KEY-----`), not the secret. */
const MIN_SECRET_LINE = 16;

/**
 * The texts a secret stands as in what concord writes besides itself: as a JSON or YAML string escapes it (once, or
 * twice for JSON text kept inside JSON), and each
 * as HTML and XML escape it (a report shows a snapshot's JSON inside HTML); for a secret of several lines (a PEM key),
 * each of its long lines too, as a YAML block writes them one by one. (The scrubber matches without case.)
 */
function escapedTexts(secret: string): string[] {
  const lines = secret.split(/\r\n?|\n/).map((line) => line.trim());
  const pieces = [
    secret,
    ...(lines.length > 1 ? lines.filter((line) => line.length >= MIN_SECRET_LINE && !line.startsWith('-----')) : []),
  ];
  const texts = new Set<string>();
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  // A tool's JSON answer kept as text in a transcript, and that transcript in a results file: escaped twice.
  for (const piece of pieces)
    for (const text of [piece, escaped(piece), escaped(escaped(piece))]) {
      texts.add(text);
      texts.add(escapeHtml(text));
    }
  return [...texts];
}

/** Every form of `secret` the scrubber looks for, longest first. */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>(escapedTexts(secret));
  for (const variant of new Set([secret, secret.toLowerCase(), secret.toUpperCase()])) {
    forms.add(variant);
    forms.add(encodeURIComponent(variant));
    forms.add(encodeURIComponent(variant).replace(/%20/g, '+'));
    for (const core of base64Cores(variant)) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms].filter((form) => form.length >= MIN_FORM).sort((a, b) => b.length - a.length);
}

/**
 * The part of the base64 text of `text` that stays the same wherever `text` sits in a longer byte string:
 * for each of the three alignments, the characters made only of `text`'s own bits.
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const total = shift + bytes.length;
    cores.push(encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * total) / 6)));
  }
  return cores;
}

/** From now on, `secret` is scrubbed from everything this process prints or writes. */
export function holdSecret(secret: string): void {
  if (secret.length === 0 || held.has(secret)) return;
  held.add(secret);
  const forms = [...held].flatMap(secretForms).sort((a, b) => b.length - a.length);
  pattern = forms.length === 0 ? undefined : new RegExp(forms.map(literalPattern).join('|'), 'gi');
  const latin1 = forms.map((form) => Buffer.from(form, 'utf8').toString('latin1'));
  bytePattern = latin1.length === 0 ? undefined : new RegExp(latin1.map(literalPattern).join('|'), 'gi');
}

/** `text` with every form of every held secret replaced by `[redacted]`. */
export function scrubSecrets(text: string): string {
  return pattern === undefined ? text : text.replace(pattern, REDACTED);
}

/** How many times a form of a held secret occurs in `text`. */
export function countSecrets(text: string): number {
  return pattern === undefined ? 0 : (text.match(pattern) ?? []).length;
}

/** The bytes with every held secret scrubbed, compared byte for byte (any encoding of the rest is kept). */
export function scrubSecretBytes(bytes: Uint8Array): Uint8Array {
  if (bytePattern === undefined) return bytes;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  bytePattern.lastIndex = 0;
  if (!bytePattern.test(text)) return bytes;
  return Buffer.from(text.replace(bytePattern, REDACTED), 'latin1');
}

/** Text or bytes, scrubbed. */
export function scrubContent<T extends string | Uint8Array>(content: T): T {
  return (typeof content === 'string' ? scrubSecrets(content) : scrubSecretBytes(content)) as T;
}

let guarded = false;

/** Every later write to stdout and stderr is scrubbed of the held secrets (console.log and error lines included). */
export function scrubPrintedOutput(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(
        typeof chunk === 'string' || chunk instanceof Uint8Array ? scrubContent(chunk) : chunk,
        ...rest,
      )) as typeof stream.write;
  }
}

let modelKey: string | undefined;
let keyTaken = false;

/**
 * The model key, from CONCORD_MODEL_API_KEY, read once: it is taken out of the environment (so nothing
 * concord starts inherits it) and held, so it is scrubbed from everything printed or written from then on.
 */
export function takeModelKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!keyTaken) {
    keyTaken = true;
    const key = env.CONCORD_MODEL_API_KEY;
    if (key) {
      modelKey = key;
      holdSecret(key);
    }
  }
  delete env.CONCORD_MODEL_API_KEY;
  return modelKey;
}
