import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../project/config.js';
import { configRefusal } from '../project/test/config-refusal.js';
import { Normalizer } from './normalize.js';
import { type RunRecord, snapshotFiles, TRANSCRIPT_FILE } from './transcript.js';

const config = (source: string) => parseProjectConfig('/p/concord.config.yml', source);
const refusal = configRefusal;

/** A run whose one program called create_order, which answered with a fresh id and time. */
const record = (output: Record<string, unknown>): RunRecord => ({
  scenario: 's',
  runtime: 'typescript',
  language: 'typescript',
  isolation: 'worker-thread',
  entries: [],
  exchanges: [],
  programs: [
    {
      code: 'return await tools.create_order({})',
      tools: ['create_order', 'list_orders'],
      calls: [
        { tool: 'create_order', args: {}, value: output as never },
        { tool: 'list_orders', args: {}, value: { ids: ['ord_x1', 'ord_y2'], stamp: 'ord_x1' } },
      ],
      result: { value: { ...output } as never, logs: [`created ${String(output.id)}`] },
    },
  ],
});

describe('built-in redactions', () => {
  it('numbers ISO-8601 timestamps and dates per transcript, beside UUIDs, and keeps correlation', () => {
    const n = new Normalizer('/p');
    const text = n.text(
      'at 2026-12-01T11:09:00.123Z, again 2026-12-01T11:09:00.123Z, then 2026-12-01 10:00:00+01:00; due 2026-12-24 and 2026-12-24; id 123e4567-e89b-12d3-a456-426614174000',
    );
    expect(text).toBe(
      'at <timestamp-1>, again <timestamp-1>, then <timestamp-2>; due <date-1> and <date-1>; id <uuid-1>',
    );
    // A fresh normalizer (the next transcript) counts from 1 again.
    expect(new Normalizer('/p').text('2027-01-01T00:00Z')).toBe('<timestamp-1>');
  });

  it('leaves what only looks like a date alone', () => {
    const n = new Normalizer('/p');
    expect(n.text('version 2026-13-01, 12026-12-01x, phone 2026-12-011')).toBe(
      'version 2026-13-01, 12026-12-01x, phone 2026-12-011',
    );
  });
});

describe("a project's own redactions", () => {
  it('replaces every match of an unscoped pattern in every file with a numbered placeholder', () => {
    const { redactions } = config('redactions:\n  - pattern: "ord_[a-z0-9]+"\n    placeholder: order-id\n');
    const files = snapshotFiles(record({ id: 'ord_new9' }), '/p', redactions);
    const transcript = files.get(TRANSCRIPT_FILE)!;
    expect(transcript).not.toMatch(/ord_/);
    expect(transcript).toContain(
      'ids:\n            - <order-id-2>\n            - <order-id-3>\n          stamp: <order-id-2>',
    );
    expect(transcript).toContain('created <order-id-1>');
  });

  it("scoped to one tool's output and a JSON path, finds the volatile values there and replaces them wherever they show", () => {
    const { redactions } = config(
      'redactions:\n  - pattern: ".+"\n    placeholder: order-id\n    tool: create_order\n    path: $.id\n',
    );
    const transcript = snapshotFiles(record({ id: 'A17', total: 17 }), '/p', redactions).get(TRANSCRIPT_FILE)!;
    // The id create_order returned is a token in its output, in the result and in the logs; list_orders and the total
    // keep theirs.
    expect(transcript.match(/<order-id-1>/g)).toHaveLength(3);
    expect(transcript).toContain('created <order-id-1>');
    expect(transcript).toContain('total: 17');
    expect(transcript).toContain('- ord_x1');
  });

  it('refuses a bad pattern at its line and column, and changes nothing', () => {
    expect(refusal('floor: "3.11"\nredactions:\n  - placeholder: order-id\n    pattern: "ord_[a-z"\n')).toMatch(
      /^4:14 redactions\[0\]\.pattern is not a regular expression: .*Unterminated character class/,
    );
    expect(refusal('redactions:\n  - { pattern: "x*", placeholder: order }\n')).toBe(
      '2:16 redactions[0].pattern "x*" matches the empty string',
    );
    expect(refusal('redactions:\n  - { pattern: "x", placeholder: uuid }\n')).toBe(
      '2:34 redactions[0].placeholder "uuid" is a built-in token',
    );
    expect(refusal('redactions:\n  - { pattern: "x", placeholder: "Order Id" }\n')).toMatch(
      /^2:34 concord\.config\.yml\.redactions\[0\]\.placeholder "Order Id" is not allowed/,
    );
    expect(refusal('redactions:\n  - { pattern: "x", placeholder: id, path: "orders.id" }\n')).toMatch(
      /^2:44 concord\.config\.yml\.redactions\[0\]\.path "orders\.id" is not allowed/,
    );
  });
});
