import { describe, expect, it } from 'vitest';
import { PYTHON_KEYWORDS, pythonNameRules } from '../../codemode/sdk/identifiers/index.js';
import type { PythonVersion } from '../../codemode/tools/types.js';
import { Host } from '../../test/host-requirements.js';
import { findInterpreters, runPythonJson } from './local.js';

const interpreters = findInterpreters();
const floor = await Host.with('python3.9');
console.log(`identifier cross-check interpreters: ${interpreters.map((i) => i.version).join(', ') || 'none'}`);

/**
 * For each interpreter, the code points it accepts at the start and inside an identifier (with NFKC
 * leaving the name alone), as end-exclusive ranges.
 */
const IDENTIFIER_RANGES_SCRIPT = String.raw`
import json, sys, unicodedata
def ranges(test):
    out, start = [], None
    for cp in range(0x110000):
        ok = 0xd800 > cp or cp > 0xdfff
        if ok:
            ok = test(chr(cp))
        if ok and start is None:
            start = cp
        elif not ok and start is not None:
            out.append([start, cp]); start = None
    if start is not None:
        out.append([start, 0x110000])
    return out
def bare(s):
    return s.isidentifier() and unicodedata.normalize("NFKC", s) == s
print(json.dumps({
    "unicode": unicodedata.unidata_version,
    "start": ranges(lambda c: bare(c)),
    "continue": ranges(lambda c: bare("x" + c)),
}))
`;

// The exhaustive walk costs a few seconds per interpreter: run it for the default floor and the newest one.
const exhaustive = new Set([interpreters.find((i) => i.version === '3.9'), interpreters.at(-1)]);

describe('agreement with real interpreters', () => {
  for (const interpreter of interpreters) {
    it(`${interpreter.version} ships the Unicode version its floor table is`, () => {
      const version = runPythonJson<string>(
        interpreter,
        'import json, unicodedata; print(json.dumps(unicodedata.unidata_version))',
        null,
      );
      expect(version).toBe(pythonNameRules(interpreter.version as PythonVersion).unicodeVersion);
    });
  }
  for (const interpreter of interpreters.filter((i) => exhaustive.has(i))) {
    it(`floor ${interpreter.version}: every bare name is an identifier there; the rest differ only by ignorables`, () => {
      const rules = pythonNameRules(interpreter.version as PythonVersion);
      const python = runPythonJson<{ unicode: string; start: [number, number][]; continue: [number, number][] }>(
        interpreter,
        IDENTIFIER_RANGES_SCRIPT,
        null,
      );
      expect(python.unicode).toBe(rules.unicodeVersion);
      const inRanges = (ranges: [number, number][]) => {
        const set = new Set<number>();
        for (const [start, end] of ranges) for (let cp = start; cp < end; cp++) set.add(cp);
        return set;
      };
      const start = inRanges(python.start);
      const cont = inRanges(python.continue);
      const mismatches: string[] = [];
      for (let cp = 0; cp < 0x110000; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const char = String.fromCodePoint(cp);
        const oursStart = rules.isNameStart(cp) && rules.isBareName(char);
        const oursContinue = rules.isNameContinue(cp) && rules.isBareName(`x${char}`);
        const ignorable = !rules.isNameContinue(cp) && !rules.isNameStart(cp);
        const keyword = PYTHON_KEYWORDS.has(char) || char === '_'; // '_' is a start, never a keyword
        if (oursStart && !start.has(cp)) mismatches.push(`start U+${cp.toString(16)} accepted only by us`);
        if (oursContinue && !cont.has(cp)) mismatches.push(`continue U+${cp.toString(16)} accepted only by us`);
        if (!oursStart && start.has(cp) && !ignorable && !keyword)
          mismatches.push(`start U+${cp.toString(16)} refused`);
        if (!oursContinue && cont.has(cp) && !ignorable) mismatches.push(`continue U+${cp.toString(16)} refused`);
      }
      expect(mismatches.slice(0, 20)).toEqual([]);
    });
  }

  const python39 = interpreters.find((i) => i.version === '3.9');
  floor.it('floor 3.9: names built from newer letters are not bare, and python3.9 refuses them', {}, () => {
    const rules = pythonNameRules('3.9');
    const newest = pythonNameRules('3.15');
    const newer: string[] = [];
    for (let cp = 0x80; cp < 0x110000 && newer.length < 400; cp++) {
      if (newest.isNameStart(cp) && !rules.isAssigned(cp)) newer.push(`x${String.fromCodePoint(cp)}`);
    }
    expect(newer.length).toBeGreaterThan(100);
    for (const name of newer) expect(rules.isBareName(name), name).toBe(false);
    const compiled = runPythonJson<(string | null)[]>(
      python39!,
      String.raw`
import json, sys
out = []
for name in json.loads(sys.stdin.read()):
    try:
        compile("class C:\n    %s: int\n" % name, "t.py", "exec"); out.append(None)
    except SyntaxError as error:
        out.append(str(error))
print(json.dumps(out))`,
      newer,
    );
    expect(compiled.filter((error) => error === null)).toEqual([]);
  });
});
