import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { junitXml } from './junit.js';
import type { PairResult } from './outcome.js';

const times = { assembly: 1, model: 1, runtime: 1, checks: 1 };

/** Parses with expat (CPython's XML parser): the document's test cases as [classname, name, message, text]. */
function parse(document: string): string[][] {
  const script = `
import json, sys, xml.dom.minidom
doc = xml.dom.minidom.parseString(sys.stdin.buffer.read())
out = []
for case in doc.getElementsByTagName('testcase'):
    child = next((n for n in case.childNodes if n.nodeType == n.ELEMENT_NODE), None)
    text = ''.join(t.data for t in child.childNodes) if child else ''
    out.append([case.getAttribute('classname'), case.getAttribute('name'), child.getAttribute('message') if child else '', text])
print(json.dumps(out))
`;
  const result = spawnSync('python3', ['-c', script], { input: Buffer.from(document, 'utf8'), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`not well-formed XML: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[][];
}

describe('the JUnit file', () => {
  it('stays well-formed XML 1.0 whatever the names and texts hold, each forbidden character shown as U+FFFD', () => {
    const hostile = 'a\uFFFF b\uFFFE c\uD800 d\u0001 e\u001B[31m f]]> <g h="&amp;"> \'i\'';
    const pairs: PairResult[] = [
      {
        scenario: `s${hostile}`,
        runtime: 'python',
        status: 'failed',
        times,
        verdicts: [],
        findings: [],
        reason: `line one\n${hostile}\r\nend`,
      },
      {
        scenario: `s${hostile}`,
        runtime: 'pyodide',
        status: 'skipped',
        times,
        verdicts: [],
        findings: [],
        reason: `first\n\tsecond ${hostile}`,
      },
    ];
    const shown = 'a\uFFFD b\uFFFD c\uFFFD d\uFFFD e\uFFFD[31m f]]> <g h="&amp;"> \'i\'';
    expect(parse(junitXml(pairs, [`gone${hostile}/python`]))).toEqual([
      [`s${shown}`, 'python', 'failed', `line one\n${shown}\r\nend`],
      [`s${shown}`, 'pyodide', `first\n\tsecond ${shown}`, ''],
      ['snapshots', 'obsolete', 'obsolete', `gone${shown}/python`],
    ]);
  });

  it('writes a finding several pairs share once, and names the pair that has it in the others', () => {
    const note = {
      check: 'stub-validity',
      severity: 'note' as const,
      message: 'tools-sdk.py does not compile on local 3.8 (below the floor 3.9: not a failure): SyntaxError at line 3',
    };
    const error = {
      check: 'stub-validity',
      severity: 'error' as const,
      message: 'tools-sdk.py does not compile on local 3.9: SyntaxError at line 7',
    };
    const pair = (runtime: string, findings: PairResult['findings']): PairResult => ({
      scenario: 'checkout',
      runtime,
      status: 'failed',
      times,
      verdicts: [],
      findings,
    });
    const cases = parse(
      junitXml([pair('python', [note, error]), pair('pyodide', [note, error]), pair('python-container', [error])], []),
    );
    // What failed leads; a below-floor note follows it.
    expect(cases.map((c) => c[3])).toEqual([
      `stub-validity: ${error.message}\nstub-validity: ${note.message}`,
      'stub-validity: the same finding as in checkout × python\nstub-validity: the same note as in checkout × python',
      'stub-validity: the same finding as in checkout × python',
    ]);
  });

  it('keeps characters XML 1.0 allows, astral ones included', () => {
    const fine = 'tab\there \u00e9 \uD7FF \uE000 \uFFFD \u{1F600} \u{10FFFF}';
    const pairs: PairResult[] = [
      { scenario: 'ok', runtime: 'python', status: 'failed', times, verdicts: [], findings: [], reason: fine },
    ];
    expect(parse(junitXml(pairs, []))[0]![3]).toBe(fine);
  });
});
