import type { RunRecord } from '../transcript.js';

/** A run of scenario `s` on the TypeScript worker that asked and ran nothing, `fields` on top. */
export function runRecord(fields: Partial<RunRecord> = {}): RunRecord {
  return {
    scenario: 's',
    runtime: 'typescript',
    language: 'typescript',
    isolation: 'worker-thread',
    entries: [],
    exchanges: [],
    programs: [],
    ...fields,
  };
}
