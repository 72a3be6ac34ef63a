import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { PyrightServer } from './pyright-server.js';

const servers: PyrightServer[] = [];
const started = (timeoutMs?: number) => {
  const server = new PyrightServer('3.11', timeoutMs);
  servers.push(server);
  return server;
};
afterAll(() => servers.forEach((server) => server.kill()));

/** A server started while `name` is `value` in this process's environment (what it inherits), put back after. */
function startedWith(name: string, value: string): PyrightServer {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return started();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

/** Programs whose only error is one the checker finds: parsing and binding alone see nothing wrong. */
const programs = Array.from(
  { length: 8 },
  (_, i) => [`program_${i + 1}.py`, `def f() -> int:\n    return "${i}"\n`] as const,
);

describe('a pyright server', () => {
  it('answers each opened file with its finished analysis, not an earlier empty one', {
    timeout: 120_000,
  }, async () => {
    const server = started();
    for (let round = 0; round < 3; round++) {
      const results = await server.check({ files: new Map(programs), open: programs.map(([name]) => name) });
      for (const [name] of programs) {
        expect([name, results.get(name)?.map((d) => [d.line, d.character, d.rule])]).toEqual([
          name,
          [[1, 11, 'reportReturnType']],
        ]);
      }
    }
  });

  it('fails a job it has not answered within its timeout, rather than passing it', { timeout: 60_000 }, async () => {
    const [name, text] = programs[0]!;
    await expect(started(1).check({ files: new Map([[name, text]]), open: [name] })).rejects.toThrow(
      'pyright did not answer within 0.001 s',
    );
  });

  it('resolves imports against typeshed alone: a module the python3 on PATH offers stays unresolved, and no interpreter runs', {
    timeout: 120_000,
  }, async () => {
    // A python3 first on PATH that would hand pyright a search path holding a module, and notes that it ran.
    const host = await mkdtemp(join(tmpdir(), 'concord-pyright-host-'));
    onTestFinished(() => rm(host, { recursive: true, force: true }));
    const site = join(host, 'site-packages');
    const ran = join(host, 'python-ran');
    await mkdir(join(host, 'bin'));
    await mkdir(site);
    await writeFile(join(site, 'planted_host_module.py'), 'VALUE: int = 1\n');
    for (const name of ['python3', 'python']) {
      await writeFile(
        join(host, 'bin', name),
        `#!/bin/sh\ntouch '${ran}'\nprintf '%s' '${JSON.stringify({ path: [site], prefix: host })}'\n`,
      );
      await chmod(join(host, 'bin', name), 0o755);
    }
    const server = startedWith('PATH', `${join(host, 'bin')}${delimiter}${process.env.PATH}`);
    const results = await server.check({
      files: new Map([['program.py', 'import json\nimport planted_host_module\n']]),
      open: ['program.py'],
    });
    expect(results.get('program.py')?.map((d) => [d.line, d.rule, d.message])).toEqual([
      [1, 'reportMissingImports', 'Import "planted_host_module" could not be resolved'],
    ]);
    expect(existsSync(ran)).toBe(false);
  });

  it("leaves nothing in the temp dir once killed: pyright's own temp folder is inside concord's", {
    timeout: 120_000,
  }, async () => {
    // A temp dir of this test's own: the workspace and whatever pyright makes land there, and nothing may stay.
    const temp = await mkdtemp(join(tmpdir(), 'concord-pyright-temp-'));
    onTestFinished(() => rm(temp, { recursive: true, force: true }));
    const server = startedWith('TMPDIR', temp);
    const [name, text] = programs[0]!;
    expect((await server.check({ files: new Map([[name, text]]), open: [name] })).get(name)).toHaveLength(1);
    expect((await readdir(temp)).filter((entry) => entry.startsWith('pyright-'))).toEqual([]);
    server.kill();
    await vi.waitFor(() => expect(server.exitReason).toBeDefined(), { timeout: 10_000 });
    expect(await readdir(temp)).toEqual([]);
  });
});
