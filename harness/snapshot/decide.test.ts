import { describe, expect, it } from 'vitest';
import { type Decision, decide, type UpdateMode, writesEverything } from './decide.js';
import type { FileStatus } from './store.js';

const STATUSES: FileStatus[] = ['same', 'changed', 'new', 'garbage', 'obsolete'];
const MODES: UpdateMode[] = ['none', 'new', 'all'];

/** Every combination, written out: the table a reviewer checks against the update rules of docs/review.md. */
const TABLE: Record<`${FileStatus}/${UpdateMode}/${'ci' | 'local'}`, Decision> = {
  'same/none/local': 'keep',
  'same/new/local': 'keep',
  'same/all/local': 'keep',
  'same/none/ci': 'keep',
  'same/new/ci': 'keep',
  'same/all/ci': 'keep',
  'changed/none/local': 'propose',
  'changed/new/local': 'propose',
  'changed/all/local': 'write',
  'changed/none/ci': 'propose',
  'changed/new/ci': 'propose',
  'changed/all/ci': 'propose',
  'new/none/local': 'propose',
  'new/new/local': 'write',
  'new/all/local': 'write',
  'new/none/ci': 'propose',
  'new/new/ci': 'propose',
  'new/all/ci': 'propose',
  'garbage/none/local': 'propose',
  'garbage/new/local': 'propose',
  'garbage/all/local': 'write',
  'garbage/none/ci': 'propose',
  'garbage/new/ci': 'propose',
  'garbage/all/ci': 'propose',
  'obsolete/none/local': 'propose',
  'obsolete/new/local': 'propose',
  'obsolete/all/local': 'write',
  'obsolete/none/ci': 'propose',
  'obsolete/new/ci': 'propose',
  'obsolete/all/ci': 'propose',
};

describe('decide: status × update mode × CI', () => {
  const cases = STATUSES.flatMap((status) =>
    MODES.flatMap((update) => [true, false].map((ci) => [status, update, ci] as const)),
  );

  it('covers every combination once', () => {
    expect(cases).toHaveLength(Object.keys(TABLE).length);
  });

  it.each(cases)('%s with --update=%s, CI %s', (status, update, ci) => {
    expect(decide(status, { update, ci })).toBe(TABLE[`${status}/${update}/${ci ? 'ci' : 'local'}`]);
  });

  it('writes everything only with --update=all outside CI', () => {
    expect(
      MODES.flatMap((update) =>
        [true, false].filter((ci) => writesEverything({ update, ci })).map((ci) => `${update}/${ci}`),
      ),
    ).toEqual(['all/false']);
  });
});
