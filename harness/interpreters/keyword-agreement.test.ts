import { describe, expect, it } from 'vitest';
import { PYTHON_HARD_KEYWORDS, PYTHON_SOFT_KEYWORDS } from '../../runtimes/seam/python-keywords.js';
import { findInterpreters, runPythonJson } from './local.js';

const interpreters = findInterpreters();

/** An interpreter's keywords, hard and (from 3.9, where the module lists them) soft. */
const KEYWORDS_SCRIPT = `import json, keyword; print(json.dumps([keyword.kwlist, getattr(keyword, "softkwlist", [])]))`;

describe('the Python keyword lists', () => {
  it.runIf(interpreters.length > 0)(
    'hold every keyword of each CPython found here, and nothing none of them has',
    () => {
      const hard = new Set<string>();
      const soft = new Set<string>();
      for (const interpreter of interpreters) {
        const [kwlist, softkwlist] = runPythonJson<[string[], string[]]>(interpreter, KEYWORDS_SCRIPT, null);
        for (const word of kwlist) hard.add(word);
        for (const word of softkwlist) soft.add(word);
        expect(PYTHON_HARD_KEYWORDS, interpreter.version).toEqual(expect.arrayContaining(kwlist));
        expect(PYTHON_SOFT_KEYWORDS, interpreter.version).toEqual(expect.arrayContaining(softkwlist));
      }
      // Each hard keyword is one in some interpreter (`__peg_parser__` only on 3.9, when one is found here).
      const unseen = PYTHON_HARD_KEYWORDS.filter((word) => !hard.has(word));
      const has39 = interpreters.some((interpreter) => interpreter.version === '3.9');
      expect(unseen).toEqual(has39 ? [] : unseen.filter((word) => word === '__peg_parser__'));
    },
  );
});
