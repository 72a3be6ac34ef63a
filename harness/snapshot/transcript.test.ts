import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { snapshotFiles, type RunRecord } from './transcript.js';

const STUBS = 'class Tools:\n    pass\n\n\ntools: Tools\n';

function recordWith(section: string): RunRecord {
  return {
    scenario: 'prose',
    runtime: 'python',
    language: 'python',
    isolation: 'process',
    cordisYml: '',
    exchanges: [{ request: { system: [{ id: 'persona', text: 'Be brief.' }, { id: 'tools:sdk', text: section }], tools: [], messages: [] } }],
    programs: [],
  };
}

const sdkEntry = (files: Map<string, string>) => (parse(files.get('transcript.yaml')!) as { system: unknown[] }).system[1];

describe('the snapshot of a tools:sdk section', () => {
  it('keeps a bare fence as the block file and its info string, as before', () => {
    const files = snapshotFiles(recordWith('```python\n' + STUBS + '```'), '/nowhere');
    expect(files.get('tools-sdk.py')).toBe(STUBS);
    expect(sdkEntry(files)).toEqual({ id: 'tools:sdk', fence: 'python', file: 'tools-sdk.py' });
  });

  it('keeps the block as a real source file and the prose around it verbatim in the transcript', () => {
    const before = '## Writing code for run_code\n\nCall `await tools.name({...})`.\n\n';
    const after = '\nFailures raise `ToolCallError`.';
    const files = snapshotFiles(recordWith(before + '~~~py\n' + STUBS + '~~~\n' + after), '/nowhere');
    expect(files.get('tools-sdk.py')).toBe(STUBS);
    expect(sdkEntry(files)).toEqual({ id: 'tools:sdk', before, fence: 'py', opening: '~~~py', file: 'tools-sdk.py', closing: '~~~', after });
    expect(files.get('transcript.yaml')).toContain('    before: |+\n      ## Writing code for run_code\n');
  });

  it('shows a section with no SDK block whole, and writes no block file', () => {
    const files = snapshotFiles(recordWith('no fence here'), '/nowhere');
    expect(files.has('tools-sdk.py')).toBe(false);
    expect(sdkEntry(files)).toEqual({ id: 'tools:sdk', text: 'no fence here' });
  });
});
