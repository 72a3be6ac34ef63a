import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';

// An idle Pyodide instance is unref'd so it never keeps concord alive; callers hold it while they wait.
// Two callers overlapping on one instance must both be answered: the first to finish may not let the
// process end under the second. Node ends a process whose event loop is empty with exit code 13 while an
// await is still pending, so this runs in a child process of its own.
const script = `
const { PyodideInterpreter } = await import(${JSON.stringify(builtModule('harness/interpreters/pyodide.ts'))});
const interpreter = new PyodideInterpreter('3.13');
const first = interpreter.compile(['x = 1\\n']);
const second = first.then(() => new Promise((resolve) => setImmediate(resolve))).then(() => interpreter.compile(['y = (\\n']));
const slow = interpreter.compile(['z = 2\\n']);
const reports = await Promise.all([first, slow, second]);
console.log(JSON.stringify(reports.map((r) => r.results[0].ok)));
await interpreter.dispose();
`;

describe('a Pyodide interpreter shared by overlapping callers', () => {
  it('keeps the process alive until the last caller has its answer', () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('[true,true,false]');
  });
});
