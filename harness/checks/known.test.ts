import { describe, expect, it } from 'vitest';
import type { Finding } from '../findings.js';
import { KnownFindings } from './known.js';

const error = (check: string, message: string): Finding => ({ check, severity: 'error', message });
const WHY = 'the framework decides identifiers with Node tables';

describe('known findings', () => {
  it('turn an error of the named check whose text holds the words into a note saying why, on its first line', () => {
    const known = new KnownFindings([{ check: 'probe', says: 'non-printable', why: WHY }]);
    expect(
      known.apply([
        error('probe', 'tools-sdk.py does not compile: invalid non-printable character U+088F\n33 | class X:'),
        error('renderer-floor', 'invalid non-printable character U+088F'),
        error('probe', 'tools-sdk.py does not compile: invalid syntax'),
        { check: 'probe', severity: 'note', message: 'non-printable, but a note already' },
      ]),
    ).toEqual([
      {
        check: 'probe',
        severity: 'note',
        message: `tools-sdk.py does not compile: invalid non-printable character U+088F (known: ${WHY})\n33 | class X:`,
      },
      error('renderer-floor', 'invalid non-printable character U+088F'),
      error('probe', 'tools-sdk.py does not compile: invalid syntax'),
      { check: 'probe', severity: 'note', message: 'non-printable, but a note already' },
    ]);
    expect(known.unmet('known')).toEqual([]);
  });

  it('say once an entry that no finding of the run met', () => {
    const known = new KnownFindings([
      { check: 'probe', says: 'non-printable', why: WHY },
      { check: 'stub-import', says: 'NotRequired', why: WHY },
    ]);
    known.apply([error('probe', 'invalid non-printable character')]);
    expect(known.unmet('known')).toEqual([
      {
        check: 'known',
        severity: 'note',
        message:
          'known: no stub-import finding of this run says "NotRequired"; once it is fixed, remove it from known: in concord.config.yml',
      },
    ]);
  });
});
