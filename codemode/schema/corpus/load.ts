import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import type { ToolDefinition } from '../../tools/types.js';

/** One collected tool set and where it came from (see `sources.json`). */
export interface CorpusSource {
  file: string;
  kind: 'mcp' | 'pydantic' | 'openapi';
  package: string;
  version: string;
  tools: ToolDefinition[];
}

/**
 * The real-world schema corpus: tool sets listed from MCP servers, written by a Python framework and taken
 * from OpenAPI components, as `scripts/collect-schema-corpus.mjs` recorded them. Read from the source
 * folder (the JSON files are data, not build output).
 */
export function loadCorpus(): CorpusSource[] {
  const folder = sourceAsset('codemode/schema/corpus');
  const read = (name: string): unknown => JSON.parse(readFileSync(join(folder, name), 'utf8'));
  const sources = read('sources.json') as Omit<CorpusSource, 'tools'>[];
  return sources.map((source) => ({ ...source, tools: read(source.file) as ToolDefinition[] }));
}

/** Keywords that give a root a shape: a root with none of them is unstructured and stays untyped. */
const SHAPE_KEYWORDS = ['type', 'properties', '$ref', 'anyOf', 'oneOf', 'allOf', 'items', 'enum', 'const'];

export function isStructured(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && SHAPE_KEYWORDS.some((key) => Object.hasOwn(schema, key));
}
