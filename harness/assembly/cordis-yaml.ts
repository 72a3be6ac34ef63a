import { Document } from 'yaml';
import { JS_EXPR_TAG } from '../scenario/js-expr.js';
import { yamlText } from '../text/yaml-text.js';

const OPTIONS = { lineWidth: 0 };

/**
 * The text of a `cordis.yml` holding `entries`: the file the loader boots and, its strings normalized by
 * `prepare`, the file the snapshot keeps. One function, so the two differ in nothing but those strings.
 */
export function cordisYaml(entries: unknown, prepare?: (doc: Document) => void): string {
  const doc = new Document(entries, { customTags: [JS_EXPR_TAG] });
  prepare?.(doc);
  return yamlText(doc, OPTIONS);
}
