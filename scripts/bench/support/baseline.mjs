// The SDK renderers as they were at a fixed commit, for benches that print ratios against them in the same run:
// the commit's sources are taken from git, compiled to JavaScript in a fresh temporary folder, imported, and the
// folder is removed on dispose (and at exit). Without the commit (a tarball, a shallow clone) there is no baseline
// and `reason` says why; a bench then states fixed figures instead.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repository = fileURLToPath(new URL('../../../', import.meta.url));

/** The sources the renderers import, and nothing else. */
const PATHS = ['codemode/sdk', 'codemode/schema', 'codemode/tools', 'contract', 'runtimes/seam'];

/**
 * `{ renderTypeScriptSdk, renderPythonSdk, folder, dispose }` built from `commit` into `folder`, or `{ reason }` when it
 * cannot be.
 */
export async function baselineRenderers(commit) {
  let tar;
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: repository, stdio: 'ignore' });
    tar = execFileSync('git', ['archive', '--format=tar', commit, ...PATHS], {
      cwd: repository,
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return { reason: `commit ${commit.slice(0, 12)} is not in this checkout (git history is needed)` };
  }
  const ts = (await import('typescript')).default;
  const folder = mkdtempSync(join(tmpdir(), 'concord-bench-baseline-'));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  process.once('exit', remove);
  try {
    execFileSync('tar', ['-x', '-C', folder], { input: tar });
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
    for (const file of sourceFiles(folder)) {
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        fileName: file,
      });
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file.replace(/\.ts$/, '.js'), outputText);
    }
    const load = (path) => import(pathToFileURL(join(folder, path)).href);
    const [{ renderTypeScriptSdk }, { renderPythonSdk }] = await Promise.all([
      load('codemode/sdk/typescript/index.js'),
      load('codemode/sdk/python/index.js'),
    ]);
    return { renderTypeScriptSdk, renderPythonSdk, folder, dispose: remove };
  } catch (error) {
    remove();
    return { reason: `the sources of ${commit.slice(0, 12)} did not build: ${error.message}` };
  }
}

function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    const name = entry.name;
    if (entry.isFile() && name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts'))
      yield join(entry.parentPath ?? entry.path, name);
  }
}
