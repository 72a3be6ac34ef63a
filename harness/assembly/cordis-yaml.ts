import { stringify } from 'yaml';

/**
 * The text of a `cordis.yml` holding `entries`: the file the loader boots and, its values normalized, the
 * file the snapshot keeps. One function, so the two never differ in more than the normalized values.
 */
export function cordisYaml(entries: unknown): string {
  return stringify(entries, { lineWidth: 0 });
}
