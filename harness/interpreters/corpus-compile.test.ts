import { afterAll, describe, expect, it } from 'vitest';
import { isStructured, loadCorpus } from '../../codemode/schema/corpus/load.js';
import { renderPythonSdk } from '../../codemode/sdk/python/index.js';
import type { PythonVersion } from '../../codemode/tools/types.js';
import { findInterpreters, LocalInterpreter } from './local.js';
import { pyodideInterpreters } from './pyodide.js';
import type { PythonInterpreter } from './types.js';

// The real-world corpus (MCP servers, pydantic, OpenAPI) as Python stubs, compiled on every CPython here:
// local interpreters (pyenv 3.8–3.13 where present) and each Pyodide release.
const corpus = loadCorpus();
const interpreters: PythonInterpreter[] = [...findInterpreters().map((found) => new LocalInterpreter(found)), ...pyodideInterpreters()];
console.log(`corpus stubs compiled with: ${interpreters.map((i) => i.label).join(', ')}`);
afterAll(async () => {
  for (const interpreter of interpreters) await interpreter.dispose();
});

function floorFor(version: string): PythonVersion {
  return (Number(version.split('.')[1]) < 9 ? version : '3.9') as PythonVersion;
}

describe('the real-world corpus compiles as Python stubs', () => {
  it('has structured roots to compile', () => {
    expect(corpus.flatMap((source) => source.tools).filter((tool) => isStructured(tool.parameters)).length).toBeGreaterThan(90);
  });

  for (const interpreter of interpreters) {
    it(`${interpreter.label} (${interpreter.detail})`, { timeout: 180_000 }, async () => {
      const floor = floorFor(interpreter.version);
      const sources = [...corpus.map((source) => renderPythonSdk(source.tools, { pythonFloor: floor })), renderPythonSdk(corpus.flatMap((s) => s.tools), { pythonFloor: floor })];
      const report = await interpreter.compile(sources);
      const failures = report.results.flatMap((result, i) => (result.ok ? [] : [`${corpus[i]?.file ?? 'whole corpus'}: ${result.name}: ${result.message} (line ${result.line})`]));
      expect(failures).toEqual([]);
      expect(report.python.startsWith(`${interpreter.version}.`)).toBe(true);
    });
  }
});
