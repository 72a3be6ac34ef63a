import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { runGate } from '../gate/gate.js';
import { openProject, projectAt } from '../project/root.js';
import { InputError } from '../scenario/error.js';
import { HOST_BOOT } from './hosted.js';
import { loadProjectHost } from './project-host.js';

// A backend concord does not assemble, booted by its own host (test/hosted-app/host.mjs): its system prompt is one
// string, its messages are content blocks, its programs run on the runtime the gate hands it.

const APP = sourceAsset('harness/assembly/test/hosted-app');
let work = '';
const lines: string[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-hosted-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.HOSTED_APP_FAILS;
  lines.length = 0;
});

const gate = async (runtimes: string[] = ['typescript', 'python']) =>
  runGate({
    project: await openProject({ root: APP }),
    snapshotsDir: join(work, 'snapshots'),
    pendingRoot: join(work, 'pending'),
    reportRoot: work,
    selection: { runtimes: runtimes as never },
    update: 'new',
    ci: false,
    cache: false,
    stabilityRerun: false,
    color: false,
    out: (line) => lines.push(line),
  });

describe('an app booted by its own host', () => {
  it('gates on every runtime: its one-string prompt read for the SDK, its content blocks read as turns', {
    timeout: 240_000,
  }, async () => {
    const result = await gate();
    expect(
      result.pairs.map((p) => [p.runtime, p.status, p.reason ?? '', ...p.findings.map((f) => f.message)]),
      lines.join('\n'),
    ).toEqual([
      ['typescript', 'updated', ''],
      ['python', 'updated', ''],
    ]);
    expect(result.ok, lines.join('\n')).toBe(true);
    const transcript = parse(await readFile(join(work, 'snapshots', 'echo', 'python', 'transcript.yaml'), 'utf8'));
    expect(transcript.system).toEqual([
      { id: 'tools:sdk', before: 'You answer briefly.\n\n', fence: 'python', file: 'tools-sdk.py' },
    ]);
    expect(transcript.turns[1].sent).toEqual([{ tool: 'call-1', content: '"hello"' }]);
    expect(transcript.programs[0].calls).toEqual([
      { id: 'call-1.1', tool: 'echo', args: { text: 'hello' }, value: { text: 'hello' } },
    ]);
    expect(await readFile(join(work, 'snapshots', 'echo', 'python', 'cordis.yml'), 'utf8')).toBe(
      '- id: hosted-app\n  name: a backend of its own\n',
    );
  });

  it("fails a pair whose host's boot throws, naming the host and the line of its file", async () => {
    process.env.HOSTED_APP_FAILS = 'boot';
    const result = await gate(['typescript']);
    expect(result.pairs[0]!.status).toBe('failed');
    expect(result.pairs[0]!.reason).toMatch(
      /^host \.\/host\.mjs \(hosted-app\) failed to boot the app at .*host\.mjs:\d+:\d+: the notebook store is unreachable; fix the host/,
    );
  });

  it('fails a pair whose boot does not resolve within the start bound, and tells the host to stop', {
    timeout: 60_000,
  }, async () => {
    process.env.HOSTED_APP_FAILS = 'hang';
    const bound = HOST_BOOT.timeoutMs;
    HOST_BOOT.timeoutMs = 300;
    try {
      const result = await gate(['typescript']);
      expect(result.pairs[0]!.reason).toBe(
        'host ./host.mjs (hosted-app) did not boot the app of echo within 0.3s: it was told to stop (its signal aborted); make boot resolve once the app can take a conversation',
      );
    } finally {
      HOST_BOOT.timeoutMs = bound;
    }
  });
});

describe('a host module', () => {
  const projectWith = async (host: string, file?: { name: string; text: string }) => {
    const root = await mkdtemp(join(work, 'project-'));
    if (file) await writeFile(join(root, file.name), file.text);
    return projectAt(root, { host }, join(root, 'concord.config.yml'));
  };
  const refusal = async (load: Promise<unknown>) => {
    const error = await load.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).message;
  };

  it('is refused, naming the fix, when it is missing, leaves the root, or exports no host', async () => {
    expect(await refusal(loadProjectHost(await projectWith('./nowhere.mjs')))).toMatch(
      /host \.\/nowhere\.mjs: nowhere\.mjs is no file inside the project root/,
    );
    expect(await refusal(loadProjectHost(await projectWith('./../outside.mjs')))).toMatch(
      /is no file inside the project root/,
    );
    const noBoot = await projectWith('./host.mjs', { name: 'host.mjs', text: 'export default { name: "x" };\n' });
    expect(await refusal(loadProjectHost(noBoot))).toMatch(
      /its default export is no host \(an object with a boot function\)[\s\S]*export default \{ name: 'my-backend'/,
    );
  });

  it('that throws as it is imported is refused at its own line', async () => {
    const throwing = await projectWith('./host.mjs', {
      name: 'host.mjs',
      text: 'const ready = true;\nthrow new Error("no config");\nexport default { boot() {} };\n',
    });
    const message = await refusal(loadProjectHost(throwing));
    expect(message).toMatch(/host\.mjs:2:\d+: host \.\/host\.mjs cannot be imported: Error: no config/);
  });
});
