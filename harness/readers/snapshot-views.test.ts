import { describe, expect, it } from 'vitest';
import { snapshotReadings } from './snapshot-views.js';
import { blockOf, refusal, SECTION, subjectOf } from './test/read.js';

const body = (messages: unknown, tools: unknown) => JSON.stringify({ messages, tools });

/** Each snapshot's source, and what it shows: the sources of its views, or why it shows none, or what it is. */
const readingsOf = (text: string, file: string) =>
  snapshotReadings(text, file).map(({ source, reading }) => [
    source,
    'views' in reading
      ? reading.views.map((view) => view.source)
      : 'none' in reading
        ? `none: ${reading.none}`
        : `other: ${reading.other}`,
  ]);

describe('the request bodies of a snapshot file', () => {
  /** A snapshot file as a suite's toMatchSnapshot() leaves it, written out by hand in pretty-format's shape. */
  const SNAP = [
    '// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html',
    '',
    'exports[`agent > answers in one number 1`] = `42`;',
    '',
    'exports[`agent > sends the SDK 1`] = `',
    '{',
    '  "messages": [',
    '    {',
    `      "content": "${SECTION.replace(/[`\\]|\$\{/g, '\\$&')}",`,
    '      "role": "system",',
    '    },',
    '  ],',
    '  "tools": [],',
    '}',
    '`;',
    '',
    'exports[`agent > sends the SDK as JSON 1`] = `"' +
      body([{ role: 'system', content: SECTION }], []).replace(/[`\\]|\$\{/g, '\\$&') +
      '"`;',
    '',
    'exports[`agent > logs when 1`] = `',
    '{',
    '  "at": 2026-12-06T00:00:00.000Z,',
    '}',
    '`;',
    '',
  ].join('\n');

  it('reads each snapshot of a request body, or of its JSON text, named by the snapshot; says what the others are', () => {
    expect(readingsOf(SNAP, 'agent.test.ts.snap')).toEqual([
      [
        'agent.test.ts.snap "agent > answers in one number 1"',
        'other: JSON that is neither a chat request body nor a list of tools',
      ],
      [
        'agent.test.ts.snap "agent > sends the SDK 1"',
        ['agent.test.ts.snap "agent > sends the SDK 1" $.messages[0].content'],
      ],
      [
        'agent.test.ts.snap "agent > sends the SDK as JSON 1"',
        ['agent.test.ts.snap "agent > sends the SDK as JSON 1" $.messages[0].content'],
      ],
      [
        'agent.test.ts.snap "agent > logs when 1"',
        expect.stringMatching(/^other: a snapshot that cannot be read back \(a value JSON does not have/),
      ],
    ]);
    const [, sends] = snapshotReadings(SNAP, 'a.snap');
    const views = sends && 'views' in sends.reading ? sends.reading.views : [];
    expect(blockOf(subjectOf(views[0]!))).toBe(blockOf({ section: SECTION }));
  });

  it('reads each snapshot of a text holding an SDK as a prompt, in the language its block names', () => {
    const prompts = [
      '// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html',
      '',
      `exports[\`agent > its prompt 1\`] = \`"${SECTION.replace(/[`\\]|\$\{/g, '\\$&')}"\`;`,
      '',
      'exports[`agent > its greeting 1`] = `"Hello."`;',
      '',
    ].join('\n');
    const [prompt] = snapshotReadings(prompts, 'agent.test.ts.snap');
    const [only] = prompt && 'views' in prompt.reading ? prompt.reading.views : [];
    expect([only?.source, only?.language, blockOf(subjectOf(only!))]).toEqual([
      'agent.test.ts.snap "agent > its prompt 1"',
      'python',
      blockOf({ section: SECTION }),
    ]);
    expect(readingsOf(prompts, 'a.snap')[1]).toEqual(['a.snap "agent > its greeting 1"', 'none: no code block']);
  });

  it('refuses a request body it cannot read back; a file with no snapshot is nothing it reads', () => {
    const shaped = SNAP.replace('"tools": [],', '"system": "Answer like this:\n{\n  "a": 1\n}",\n  "tools": [],');
    expect(refusal(() => snapshotReadings(shaped, 'c.snap'))).toMatch(
      /^c\.snap: snapshot "agent > sends the SDK 1" \(line 5\) holds a chat request body that cannot be read back: a string that holds text shaped as an entry/,
    );
    expect(readingsOf('// Vitest Snapshot v1\n', 'b.snap')).toEqual([
      ['b.snap', 'other: a file that holds no snapshot'],
    ]);
  });
});
