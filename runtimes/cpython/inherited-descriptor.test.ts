import { describe, expect, it } from 'vitest';
import { builtModule } from '../seam/package-root.js';
import { INHERITED_FD, runWithInheritedDescriptor } from '../test/inherited-descriptor.js';

// A CI shell that took a lock with `exec 200>>file; flock 200` starts concord with descriptor 200 open.
// Nothing closes it on exec: unless the guest closes it, every run could append to that root-owned file.
// Needs the build (the host process imports the compiled runtime).
describe('python-process: a descriptor the caller left open', () => {
  it('is closed before a program starts: the program cannot write through it', async () => {
    const script = [
      `const { createCpythonRuntime } = await import(${JSON.stringify(builtModule('runtimes/cpython/runtime.ts'))});`,
      "const runtime = await createCpythonRuntime({ isolation: 'process', timeoutMs: 20000 });",
      'const program = [',
      '  "import os",',
      '  "try:",',
      `  "    os.write(${INHERITED_FD}, b'appended by a program\\\\n')",`,
      '  "    return \'written\'",',
      '  "except OSError as error:",',
      '  "    return type(error).__name__",',
      "].join('\\n');",
      'const result = await runtime.run({ program, bindings: [] });',
      'console.log(JSON.stringify(result));',
      'await runtime.dispose();',
    ].join('\n');
    const outcome = await runWithInheritedDescriptor(script);
    expect(outcome.stderr).not.toMatch(/Error/);
    expect(JSON.parse(outcome.stdout)).toEqual({ logs: [], value: 'OSError' });
    expect(outcome.file).toBe('root-owned, appended to by nobody\n');
  });
});
