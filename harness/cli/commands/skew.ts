import type { Command } from 'commander';
import { isPythonVersion } from '../../../codemode/index.js';
import { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS } from '../../../codemode/index.js';

interface SkewFlags {
  floor: string;
  json?: boolean;
}

export function registerSkew(program: Command): void {
  program
    .command('skew')
    .description("Show the Unicode skew between this Node and the floor CPython, and whether the Python SDK renderer is pinned to the floor")
    .option('--floor <version>', `oldest CPython the Python stubs must compile on (${SUPPORTED_PYTHON_VERSIONS.join(', ')})`, DEFAULT_PYTHON_FLOOR)
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nThe floor interpreter is a local python3.X when present, else the runtime container image, else the nearest Pyodide.\n' +
        'Exit codes: 0 pinned; 1 not pinned (or the floor interpreter rejects the SDK); 2 bad --floor.\n' +
        'Example: concord skew --floor 3.9',
    )
    .action(async (flags: SkewFlags) => {
      if (!isPythonVersion(flags.floor) || !SUPPORTED_PYTHON_VERSIONS.includes(flags.floor)) {
        console.error(`concord skew: --floor: expected one of ${SUPPORTED_PYTHON_VERSIONS.join(', ')}, got ${JSON.stringify(flags.floor)}`);
        process.exit(2);
      }
      const [{ InterpreterInventory }, { measureSkew }, { formatSkew }] = await Promise.all([
        import('../../interpreters/inventory.js'),
        import('../../skew/probe.js'),
        import('../../skew/format.js'),
      ]);
      const inventory = await InterpreterInventory.discover();
      try {
        const report = await measureSkew(flags.floor, inventory);
        process.stdout.write(flags.json ? JSON.stringify(report, null, 2) + '\n' : formatSkew(report));
        process.exitCode = report.pinned ? 0 : 1;
      } finally {
        await inventory.dispose();
      }
    });
}
