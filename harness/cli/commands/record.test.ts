import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { StandInModel } from '../../record/test/stand-in-model.js';

/** A key distinctive enough that finding it anywhere means it leaked. */
const KEY = 'sk-concord-test-9f8e7d6c5b4a';

const SCENARIO = `# Recorded from a live model: only the user turn is written by hand.
name: cities
description: The model lists the cities that have a forecast.
runtimes: [typescript, python]
composition:
  - id: tools
    plugin: codemode/tools/plugin
    config: { mode: code }   # the model writes programs
  - id: weather
    plugin: scenarios/plugins/weather
  - id: agent
    plugin: codemode/agent/plugin
    config:
      persona: You are a travel assistant.
      maxTurns: 3
script:
  - user: Which cities have a forecast?
`;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI without blocking this process, which serves the stand-in model. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [sourceAsset('bin/concord.mjs'), ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Every file below `dir` with its text, so a test can tell what a command wrote. */
async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.set(relative(dir, path), await readFile(path, 'utf8'));
    }
  };
  await walk(dir);
  return files;
}

const model = new StandInModel();
const made: string[] = [];
async function project(scenario = SCENARIO): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'concord-record-'));
  made.push(root);
  await mkdir(join(root, 'scenarios'));
  await writeFile(join(root, 'scenarios', 'cities.yml'), scenario);
  return root;
}
const record = (root: string, behaviour: string, ...more: string[]) =>
  cli(['record', '--root', root, '--model-url', model.url(behaviour), '--model', 'stand-in-1', ...more], { CONCORD_MODEL_API_KEY: KEY });

beforeAll(() => model.start());
afterAll(async () => {
  await model.stop();
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('concord record', () => {
  it('records once, then the gate replays keyless with the model gone; the key is nowhere', { timeout: 600_000 }, async () => {
    const root = await project();
    const before = await cli(['gate', '--root', root]);
    expect(before.status).toBe(1);
    expect(before.stdout).toContain('not recorded yet for typescript (the script holds only its user turn) — run concord record --scenario cities');

    const recorded = await record(root, 'ok');
    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(0);
    expect(recorded.stdout).toContain(`recording from stand-in-1 at ${model.url('ok')}`);
    expect(recorded.stdout).toMatch(/✓ cities × typescript \(typescript\): 1 run_code call\(s\)/);
    expect(recorded.stdout).toMatch(/✓ cities × python \(python\): 1 run_code call\(s\)/);
    // The key went to the endpoint, as a bearer token.
    expect(model.seen.filter((s) => s.path.startsWith('/ok/')).every((s) => s.authorization === `Bearer ${KEY}`)).toBe(true);

    const files = await tree(root);
    expect([...files.keys()].filter((f) => f.startsWith('scenarios/')).sort()).toEqual(['scenarios/cities.recorded.python.yml', 'scenarios/cities.recorded.typescript.yml', 'scenarios/cities.yml']);
    expect(files.get('scenarios/cities.yml')).toBe(SCENARIO);
    const python = files.get('scenarios/cities.recorded.python.yml')!;
    expect(python).toContain('model: stand-in-1');
    expect(python).toContain('runtime: python');
    expect(python).toContain('python: |\n          cities = (await tools.list_cities({}))["cities"]');
    expect(python).not.toContain('typescript:');
    expect(files.get('scenarios/cities.recorded.typescript.yml')).toContain('return cities.map((c) => c.name);');

    const update = await cli(['gate', '--root', root, '--update=new'], { CI: undefined });
    expect(update.stdout).toContain('gate: everything agrees');
    expect(update.status).toBe(0);

    await model.stop();
    const ci = await cli(['gate', '--root', root], { CI: 'true', CONCORD_MODEL_BASE_URL: undefined, CONCORD_MODEL_API_KEY: undefined });
    expect(ci.stdout).toContain('2 run(s): 2 pass');
    expect(ci.status).toBe(0);
    await model.start();

    const everything = [...(await tree(root)).values(), ...[before, recorded, update, ci].flatMap((r) => [r.stdout, r.stderr])].join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(3));
    expect(everything.toLowerCase()).not.toContain('bearer');
  });
});
