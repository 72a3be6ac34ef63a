import { parseJsonText } from '../guarded/json-input.js';
import { CheckInputError } from './input-error.js';
import { jsonReading, type Reading } from './material.js';
import { type SdkFileOptions, sdkFileView } from './sdk-file.js';
import { snapshotEntries } from './snapshot-file.js';

/** One snapshot of a snapshot file, as a finding names it (`file.snap "agent > prompt 1"`), and what it shows. */
export interface SnapshotReading {
  source: string;
  reading: Reading;
}

/**
 * What each snapshot of a vitest (or Jest) snapshot file shows a model: a chat request body, a tools document or one
 * function (the object, or its JSON text), read as `jsonReading` reads one; a text (a system prompt, a code tool's
 * description), read as `sdkFileView` reads an SDK file. A snapshot that holds a request body but cannot be read back
 * is bad input; any other that cannot is nothing concord reads.
 */
export function snapshotReadings(text: string, file: string, options: SdkFileOptions = {}): SnapshotReading[] {
  const entries = snapshotEntries(text);
  if (entries === undefined) return [{ source: file, reading: { other: 'a file that holds no snapshot' } }];
  return entries.map((entry) => {
    const source = `${file} ${JSON.stringify(entry.name)}`;
    if (!('value' in entry)) {
      // A body that cannot be read back is bad input, not a snapshot of something else to leave out.
      if (entry.printed !== undefined && PRINTED_REQUEST.test(entry.printed))
        throw new CheckInputError(
          file,
          `snapshot ${JSON.stringify(entry.name)} (line ${entry.line}) holds a chat request body that cannot be read back: ${entry.problem}`,
          SNAPSHOT_HINT,
        );
      return { source, reading: { other: `a snapshot that cannot be read back (${entry.problem})` } };
    }
    const { value } = entry;
    const json = typeof value === 'string' ? jsonValue(value) : { value };
    if (json !== undefined) return { source, reading: jsonReading(json.value, source, options) };
    return { source, reading: sdkFileView(value as string, source, { ...options, found: true }) };
  });
}

/** A printed object whose own keys (two spaces in) hold a conversation where a request body does. */
const PRINTED_REQUEST = /^ {2}"(?:messages|input|prompt|contents)": /m;

const SNAPSHOT_HINT =
  'snapshot the JSON text of the body your backend sends its model, which reads back exactly: expect(JSON.stringify(body, null, 2)).toMatchSnapshot(), or to a file: .toMatchFileSnapshot("requests/name.json")';

/** The object or list a JSON text holds; undefined for a text that is no JSON, or JSON of a plain value. */
function jsonValue(text: string): { value: unknown } | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  const parsed = parseJsonText(text);
  return 'problem' in parsed ? undefined : { value: parsed.value };
}
