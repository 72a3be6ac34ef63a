import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The descriptor a CI shell commonly leaves open (`exec 200>>lockfile`, for `flock 200`). */
export const INHERITED_FD = 200;
const BEFORE = 'root-owned, appended to by nobody\n';

/**
 * Runs `script` (an ES module body) in a Node process started the way a CI shell starts concord after
 * `exec 200>>file`: descriptor 200 open for appending to a root-only file, inherited. Resolves with what
 * the script printed and whether the file still holds only what it held before.
 */
export async function runWithInheritedDescriptor(
  script: string,
): Promise<{ stdout: string; stderr: string; fileUntouched: boolean; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'concord-inherited-fd-'));
  const file = join(dir, 'ci.lock');
  await writeFile(file, BEFORE, { mode: 0o600 });
  try {
    const child = spawn(
      'bash',
      [
        '-c',
        `exec ${INHERITED_FD}>>"$1"; shift; exec "$@"`,
        'bash',
        file,
        process.execPath,
        '--input-type=module',
        '-e',
        script,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    await new Promise((resolve) => child.once('close', resolve));
    const now = await readFile(file, 'utf8');
    return { stdout, stderr, fileUntouched: now === BEFORE, file: now };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
