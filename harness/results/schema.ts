import type { JsonSchema } from '../guarded/json-input.js';
import { MAX_SHARDS } from '../pairs/select.js';
import { RUNTIME_NAMES } from '../runtime-names.js';
import { changeSchema, SNAPSHOT_PATH } from '../snapshot/pending-schema.js';
import { RESULTS_VERSION } from './format.js';

const STRING = { type: 'string' };
const STRINGS = { type: 'array', items: STRING };
const COUNT = { type: 'integer', minimum: 0 };
const NAME = {
  type: 'string',
  minLength: 1,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]+$',
  description: 'a name without control characters',
};
const object = (properties: Record<string, unknown>, optional: readonly string[] = []): JsonSchema => ({
  type: 'object',
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});

const FINDING = object({ check: STRING, severity: { enum: ['error', 'note'] }, message: STRING, skipped: STRING }, [
  'skipped',
]);
const MEASURE = object({ bytes: COUNT, tokens: COUNT });
const HUNK = object({ oldStart: COUNT, oldLines: COUNT, newStart: COUNT, newLines: COUNT, lines: STRINGS });
const VERDICT = object(
  {
    path: SNAPSHOT_PATH,
    status: { enum: ['same', 'changed', 'new', 'garbage', 'obsolete'] },
    proposed: STRING,
    diff: object({
      labels: object({ before: STRING, after: STRING }),
      jsonSplit: { type: 'boolean' },
      hunks: { type: 'array', items: HUNK },
    }),
    reason: STRING,
  },
  ['proposed', 'diff', 'reason'],
);
const PAIR = object(
  {
    scenario: NAME,
    runtime: { enum: [...RUNTIME_NAMES] },
    status: { enum: ['pass', 'updated', 'mismatch', 'unstable', 'failed', 'skipped'] },
    times: object(
      {
        assembly: { type: 'number' },
        boot: { type: 'number' },
        model: { type: 'number' },
        runtime: { type: 'number' },
        checks: { type: 'number' },
      },
      ['boot'],
    ),
    verdicts: { type: 'array', items: VERDICT },
    findings: { type: 'array', items: FINDING },
    reason: STRING,
    sdk: object({ bytes: COUNT, tokens: COUNT, language: STRING, committed: MEASURE }, ['committed']),
    tools: object({ registered: { type: 'array', items: NAME }, called: { type: 'array', items: NAME } }),
  },
  ['reason', 'sdk', 'tools'],
);
const CELL = object(
  {
    scenario: NAME,
    runtime: NAME,
    interpreter: STRING,
    version: STRING,
    python: STRING,
    unicode: STRING,
    belowFloor: { type: 'boolean' },
    outcome: { enum: ['ok', 'rejected', 'import-failed', 'unavailable'] },
    error: STRING,
  },
  ['python', 'unicode', 'error'],
);
const PROPOSAL = {
  type: 'object',
  allOf: [changeSchema(true), { if: { properties: { action: { const: 'write' } } }, then: { required: ['proposed'] } }],
  properties: { proposed: STRING },
};

/**
 * What `concord merge` accepts as a results file (format.ts's GateResults): every field typed, a shard
 * within 1 ≤ index ≤ count ≤ MAX_SHARDS, proposals as an artifact's manifest takes them. Keys it does not
 * know are ignored, as every reader of the file ignores them.
 */
export const RESULTS_SCHEMA: JsonSchema = object({
  concordResults: { const: RESULTS_VERSION },
  commit: { type: ['string', 'null'] },
  configuration: object({
    concordVersion: STRING,
    floor: STRING,
    update: { enum: ['none', 'new', 'all'] },
    ci: { type: 'boolean' },
    scenarios: { type: ['array', 'null'], items: STRING },
    runtimes: { type: ['array', 'null'], items: STRING },
  }),
  shard: {
    type: ['object', 'null'],
    required: ['index', 'count'],
    properties: {
      index: { type: 'integer', minimum: 1, maximum: { $data: '1/count' } },
      count: { type: 'integer', minimum: 1, maximum: MAX_SHARDS },
    },
  },
  runId: NAME,
  pairs: { type: 'array', items: PAIR },
  obsolete: STRINGS,
  runFindings: { type: 'array', items: FINDING },
  matrix: { type: 'array', items: CELL },
  interpreters: { type: 'array', items: object({ label: STRING, version: STRING, unicode: STRING, detail: STRING }) },
  absent: STRINGS,
  proposals: { type: 'array', items: PROPOSAL },
});
