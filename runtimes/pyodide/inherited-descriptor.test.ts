import { describe, expect, it } from 'vitest';
import { builtModule } from '../seam/package-root.js';
import { INHERITED_FD, runWithInheritedDescriptor } from '../test/inherited-descriptor.js';

// A CI shell that took a lock with `exec 200>>file; flock 200` starts concord with descriptor 200 open;
// the worker process inherits it, and Node's permission model does not guard writes to an open descriptor.
// Needs the build (the host process imports the compiled runtime).
describe('pyodide: a descriptor the caller left open', () => {
  it('is closed in the worker before a program starts: the program cannot write through it', { timeout: 180_000 }, async () => {
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
});
