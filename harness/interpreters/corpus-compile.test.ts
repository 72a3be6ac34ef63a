import { afterAll, describe, expect, it } from 'vitest';
import { isStructured, loadCorpus } from '../../codemode/schema/corpus/load.js';
import { renderPythonSdk } from '../../codemode/sdk/python/index.js';
import type { PythonVersion } from '../../codemode/tools/types.js';
import { findInterpreters, LocalInterpreter } from './local.js';
import { compareVersions, type PythonInterpreter } from './types.js';

// The real-world corpus (MCP servers, pydantic, OpenAPI) as Python stubs, compiled on every CPython here
// below 3.9 (pyenv's where present) at the interpreter's own floor. From 3.9 up, local interpreters, the
// runtime images and each Pyodide release compile and execute the same stubs at floor 3.9 in
// stubs-import.e2e.test.ts.
const corpus = loadCorpus();
const interpreters: PythonInterpreter[] = findInterpreters()
  .filter((found) => compareVersions(found.version, '3.9') < 0)
  .map((found) => new LocalInterpreter(found));
console.log(`corpus stubs compiled with: ${interpreters.map((i) => i.label).join(', ')}`);
afterAll(async () => {
  for (const interpreter of interpreters) await interpreter.dispose();
});

describe('the real-world corpus compiles as Python stubs', () => {
  it('has structured roots to compile', () => {
    expect(
      corpus.flatMap((source) => source.tools).filter((tool) => isStructured(tool.parameters)).length,
    ).toBeGreaterThan(90);
  });

  for (const interpreter of interpreters) {
    it(`${interpreter.label} (${interpreter.detail})`, { timeout: 180_000 }, async () => {
      const floor = interpreter.version as PythonVersion;
      const sources = [
        ...corpus.map((source) => renderPythonSdk(source.tools, { pythonFloor: floor })),
        renderPythonSdk(
          corpus.flatMap((s) => s.tools),
          { pythonFloor: floor },
        ),
      ];
      const report = await interpreter.compile(sources);
      const failures = report.results.flatMap((result, i) =>
        result.ok
          ? []
          : [`${corpus[i]?.file ?? 'whole corpus'}: ${result.name}: ${result.message} (line ${result.line})`],
      );
      expect(failures).toEqual([]);
      expect(report.python.startsWith(`${interpreter.version}.`)).toBe(true);
    });
  }
});
