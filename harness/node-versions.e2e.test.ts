import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';
import { Host } from '../test/host-requirements.js';
import { NODE_RELEASES, type NodeMajor, nodeBinary } from '../test/node-binaries.js';
import { installedWithout } from '../test/packed.js';

/**
 * concord as teams run it, on the Node they run: the packed tarball installed into a copy of examples/orders, its
 * gate on the TypeScript worker, a local CPython and Pyodide, and `concord check`, each from a fresh cache, under the
 * Node binaries of the npm registry. Then one cache shared by two Nodes: a verdict made under one never answers the
 * other.
 */

const SECTION = `Programs are Python; call tools as \`await tools.name(args)\`.

\`\`\`python
from typing import TypedDict


class Order(TypedDict):
    id: str
    status: str


class Tools:
    async def get_order(self, args: dict) -> Order:
        """One order by its id."""


tools: Tools
\`\`\`
`;

let root = '';
let bin = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-nodes-'));
  await cp(join(packageRoot(), 'examples', 'orders'), root, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.concord)$/.test(source),
  });
  await writeFile(join(root, 'sdk.md'), SECTION);
  bin = await installedWithout(root, []);
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

function concord(major: NodeMajor, ...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(nodeBinary(major), [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, CI: '', NO_COLOR: '1' },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

const fresh = () => rm(join(root, '.concord'), { recursive: true, force: true });

for (const major of Object.keys(NODE_RELEASES).map(Number) as NodeMajor[]) {
  (await Host.with(`node ${major}`)).describe(`under Node ${NODE_RELEASES[major]}`, () => {
    it('gates the typescript, python and pyodide pairs and checks an SDK, from a fresh cache', {
      timeout: 900_000,
    }, async () => {
      await fresh();
      const gate = concord(major, 'gate', '--runtime', 'typescript', 'python', 'pyodide');
      expect(gate.status, gate.output).toBe(0);
      expect(gate.output).toContain('9 run(s): 9 pass');
      expect(gate.output).toMatch(/^gate: everything agrees/m);
      await fresh();
      const check = concord(major, 'check', '--sdk', 'sdk.md');
      expect(check.status, check.output).toBe(0);
      expect(check.output).toContain('✓ sdk.md (python): no finding');
    });
  });
}

(await Host.with('node 22', 'node 24')).describe('one cache, two Nodes', () => {
  it('answers each Node with the verdicts made under it, never the other’s', { timeout: 600_000 }, async () => {
    await fresh();
    for (const major of [22, 24, 22] as const) {
      const check = concord(major, 'check', '--sdk', 'sdk.md');
      expect(check.status, check.output).toBe(0);
    }
    // Entries of both engines are kept apart: each wrote its own.
    const judged = await readdir(join(root, '.concord', 'cache', 'import'), { recursive: true });
    const entries = judged.filter((name) => String(name).endsWith('.json'));
    expect(entries.length % 2, entries.join('\n')).toBe(0);
    expect(entries.length).toBeGreaterThan(0);
  });
});
