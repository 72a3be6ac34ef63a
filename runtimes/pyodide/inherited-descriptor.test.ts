import { describe, expect, it } from 'vitest';
import { builtModule } from '../seam/package-root.js';
import { INHERITED_FD, runWithInheritedDescriptor } from '../test/inherited-descriptor.js';
import { memoryStore } from '../test/memory-store.js';
import { SNAPSHOT_FD } from './protocol.js';
import { createPyodideRuntime } from './runtime.js';

// A CI shell that took a lock with `exec 200>>file; flock 200` starts concord with descriptor 200 open;
// the worker process inherits it, and Node's permission model does not guard writes to an open descriptor.
// Needs the build (the host process imports the compiled runtime).
describe('pyodide: descriptors open in the worker', () => {
  it('is closed in the worker before a program starts: the program cannot write through it', {
    timeout: 180_000,
  }, async () => {
    const script = [
      `const { createPyodideRuntime } = await import(${JSON.stringify(builtModule('runtimes/pyodide/runtime.ts'))});`,
      'const runtime = createPyodideRuntime({ timeoutMs: 60000 });',
      'const program = [',
      '  "import js",',
      '  "try:",',
      `  "    js.process.getBuiltinModule('fs').writeSync(${INHERITED_FD}, 'appended by a program\\\\n')",`,
      '  "    return \'written\'",',
      '  "except Exception as error:",',
      '  "    return str(error).splitlines()[-1]",',
      "].join('\\n');",
      'const result = await runtime.run({ program, bindings: [] });',
      'console.log(JSON.stringify(result));',
      'await runtime.dispose();',
    ].join('\n');
    const outcome = await runWithInheritedDescriptor(script);
    expect(JSON.parse(outcome.stdout)).toEqual({ logs: [], value: expect.stringMatching(/EBADF/) });
    expect(outcome.file).toBe('root-owned, appended to by nobody\n');
  });

  it('the boot snapshot channel is closed before a program starts: a worker booted from a snapshot cannot write through it', {
    timeout: 180_000,
  }, async () => {
    const store = memoryStore();
    const program = [
      'import js',
      'try:',
      `    js.process.getBuiltinModule('fs').writeSync(${SNAPSHOT_FD}, 'back to the host')`,
      "    return 'written'",
      'except Exception as error:',
      '    return str(error).splitlines()[-1]',
    ].join('\n');
    for (const boot of ['made', 'loaded']) {
      const runtime = createPyodideRuntime({ timeoutMs: 60_000 }, { snapshots: store });
      try {
        const result = await runtime.run({ program, bindings: [] });
        expect({ boot, value: result.value }).toEqual({ boot, value: expect.stringMatching(/EBADF/) });
      } finally {
        await runtime.dispose();
      }
      // The first boot's snapshot is written once the worker sends it; the second boots from it.
      for (let waited = 0; store.entries.size === 0 && waited < 30_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The second worker read the snapshot the first made and kept it (one that does not load is dropped and made
    // again).
    expect(store.log).toEqual(['read', 'write', 'read']);
  });
});
