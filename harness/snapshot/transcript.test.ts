import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { runRecord } from './test/run-record.js';
import { type RunRecord, snapshotFiles } from './transcript.js';

const STUBS = 'class Tools:\n    pass\n\n\ntools: Tools\n';

function recordWith(section: string): RunRecord {
  return runRecord({
    scenario: 'prose',
    runtime: 'python',
    language: 'python',
    isolation: 'process',
    exchanges: [
      {
        request: {
          system: [
            { id: 'persona', text: 'Be brief.' },
            { id: 'tools:sdk', text: section },
          ],
          tools: [],
          messages: [],
        },
      },
    ],
  });
}

const sdkEntry = (files: Map<string, string>) =>
  (parse(files.get('transcript.yaml')!) as { system: unknown[] }).system[1];

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
    expect(sdkEntry(files)).toEqual({
      id: 'tools:sdk',
      before,
      fence: 'py',
      opening: '~~~py',
      file: 'tools-sdk.py',
      closing: '~~~',
      after,
    });
    expect(files.get('transcript.yaml')).toContain('    before: |+\n      ## Writing code for run_code\n');
  });

  it('shows a section with no SDK block whole, and writes no block file', () => {
    const files = snapshotFiles(recordWith('no fence here'), '/nowhere');
    expect(files.has('tools-sdk.py')).toBe(false);
    expect(sdkEntry(files)).toEqual({ id: 'tools:sdk', text: 'no fence here' });
  });
});

describe('snapshot files wherever the project lives', () => {
  /** One run of a project at `root`: its paths show in cordis.yml, the run_code schema, a log and the failure. */
  function runAt(root: string): RunRecord {
    const plugin = `${root}/src/plugins/orders.ts`;
    return runRecord({
      scenario: 'checkout',
      runtime: 'python',
      language: 'python',
      isolation: 'process',
      entries: [
        {
          id: 'model',
          name: `${root}/node_modules/concord/dist/harness/model/plugin.js`,
          config: { scenario: `${root}/scenarios/checkout.yml` },
        },
        { id: 'orders', name: plugin },
      ],
      exchanges: [
        {
          request: {
            system: [{ id: 'persona', text: `Orders live in ${root}/data.` }],
            tools: [{ name: 'run_code', description: `Runs code; see ${root}/README.md`, parameters: {} }],
            messages: [],
          },
        },
      ],
      programs: [
        {
          code: 'print(1)',
          tools: [],
          calls: [],
          result: { value: null, logs: [`File "${plugin}", line 3`, `at ${plugin}:3:1`] },
        },
      ],
      failure: `the tool at ${plugin} failed`,
    });
  }

  it.each([
    ['a space and a hash', '/work/my backend #1'],
    ['a colon and a space', '/work/orders: v2'],
    ['quotes, a backslash and a non-ASCII name', `/work/"quoted" \\ 'single' é%20`],
    ['a leading dash and a bracket', '/- [x]/orders'],
  ])('writes the same bytes for a project whose path holds %s as for a plain one', (_, root) => {
    const plain = snapshotFiles(runAt('/work/orders'), '/work/orders');
    const odd = snapshotFiles(runAt(root), root);
    expect([...odd.keys()]).toEqual([...plain.keys()]);
    for (const [file, text] of plain) expect(odd.get(file), file).toBe(text);
    expect(plain.get('cordis.yml')).toBe(
      [
        '- id: model',
        '  name: concord/dist/harness/model/plugin.js',
        '  config:',
        '    scenario: <root>/scenarios/checkout.yml',
        '- id: orders',
        '  name: <root>/src/plugins/orders.ts',
        '',
      ].join('\n'),
    );
    expect(plain.get('transcript.yaml')).toContain('failure: the tool at <root>/src/plugins/orders.ts failed\n');
  });
});

describe('values the YAML shows twice', () => {
  it('writes a value that holds one object twice, or itself, with an anchor and normalizes it once', () => {
    const shared: Record<string, unknown> = { dir: '/work/orders/data' };
    shared.self = shared;
    const record = runRecord({
      programs: [{ code: 'x', tools: [], calls: [], result: { value: [shared, shared] as never, logs: [] } }],
    });
    const transcript = snapshotFiles(record, '/work/orders').get('transcript.yaml')!;
    expect(transcript).toContain(
      '      value:\n        - &a1\n          dir: <root>/data\n          self: *a1\n        - *a1\n',
    );
  });
});

describe('values nested very deeply', () => {
  it('writes a value deeper than 100 levels as its JSON text on one line, and one of 100 as YAML', () => {
    const nested = (depth: number) => {
      let value: JsonValue = 'leaf';
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    const transcriptOf = (value: JsonValue) =>
      snapshotFiles(
        runRecord({
          programs: [
            { code: 'x', tools: [], calls: [{ tool: 'echo', args: { v: value }, value }], result: { value, logs: [] } },
          ],
        }),
        '/nowhere',
      ).get('transcript.yaml')!;
    const deep = transcriptOf(nested(50_000));
    const text = `${'['.repeat(50_000)}"leaf"${']'.repeat(50_000)}`;
    const program = (parse(deep) as { programs: Array<Record<string, any>> }).programs[0]!;
    expect(program.result.value).toBe(text);
    expect(program.calls[0].value).toBe(text);
    expect(program.calls[0].args).toBe(`{"v":${text}}`);
    const edge = parse(transcriptOf(nested(100))) as { programs: Array<Record<string, any>> };
    expect(edge.programs[0]!.result.value).toEqual(nested(100));
    expect(typeof (parse(transcriptOf(nested(101))) as typeof edge).programs[0]!.result.value).toBe('string');
  });
});

describe('a transcript holding control characters', () => {
  it('escapes them, so any YAML reader (PyYAML refuses a raw C1 control) reads the same strings back', () => {
    const log = 'x\x1b[2K\x9b2J\x85end';
    const files = snapshotFiles(
      runRecord({
        programs: [
          { code: 'console.log(1)', tools: [], calls: [], result: { value: null, logs: [log, 'two\nlines\u2028'] } },
        ],
      }),
      '/nowhere',
    );
    const transcript = files.get('transcript.yaml')!;
    expect(transcript).toMatch(/^[\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u);
    expect(transcript).toContain('"x\\e[2K\\x9b2J\\Nend"');
    expect(JSON.stringify(parse(transcript))).toContain(JSON.stringify(log));
  });
});
