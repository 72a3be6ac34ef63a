import { spawn, spawnSync } from 'node:child_process';
import { chown, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { Host } from '../../../test/host-requirements.js';
import { StandInModel } from '../../record/test/stand-in-model.js';
import { keepCache, seedCache } from '../../test/warm-cache.js';

/** A key distinctive enough that finding it anywhere means it leaked. */
const KEY = 'sk-concord-test-9f8e7d6c5b4a';

const SCENARIO = `# Recorded from a live model: only the user turn is written by hand.
name: cities
description: The model lists the cities that have a forecast.
runtimes: [typescript, python]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }   # the model writes programs
  - id: weather
    plugin: ./plugins/cities.mjs
  - id: agent
    plugin: concord/agent
    config:
      persona: You are a travel assistant.
      maxTurns: 3
script:
  - user: Which cities have a forecast?
`;

/**
 * The project's own tool plugin, written against the public contract only, in JavaScript: these tests are about
 * recording, and a `.ts` plugin starts tsx's loader in each CLI run (about 0.3 CPU-s of a record or gate here);
 * the other tests load `.ts` plugins.
 */
const CITIES_PLUGIN = `/** @type {import('concord/contract').RegisteredTool} */
const listCities = {
  name: 'list_cities',
  description: 'Every city with a forecast.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  output: {
    type: 'object',
    properties: { cities: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
    required: ['cities'],
  },
  execute: async () => ({ cities: [{ name: 'Lisbon' }, { name: 'Oslo' }] }),
};

export default {
  name: 'cities',
  inject: ['tools'],
  /** @param {{ tools: import('concord/contract').ToolRegistryService }} ctx */
  apply(ctx) {
    ctx.tools.register(listCities);
  },
};
`;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI without blocking this process, which serves the stand-in model. */
function cli(
  args: string[],
  env: Record<string, string | undefined> = {},
  as?: { uid: number; gid: number },
): Promise<Ran> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [sourceAsset('bin/concord.mjs'), ...args], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(as ?? {}),
    });
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

const made: string[] = [];
async function project(scenario = SCENARIO): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'concord-record-'));
  made.push(root);
  await mkdir(join(root, 'scenarios', 'plugins'), { recursive: true });
  await writeFile(join(root, 'scenarios', 'cities.yml'), scenario);
  await writeFile(join(root, 'scenarios', 'plugins', 'cities.mjs'), CITIES_PLUGIN);
  return root;
}

/** A copy of the project at `root`, in a folder of its own. */
async function copyOf(root: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'concord-record-'));
  made.push(copy);
  await cp(root, copy, { recursive: true });
  return copy;
}

const models: StandInModel[] = [];
/** A stand-in model of one test: the requests it counts are that test's alone. */
async function standIn(): Promise<StandInModel> {
  const model = new StandInModel();
  models.push(model);
  await model.start();
  return model;
}

const record = (model: StandInModel, root: string, behaviour: string, ...more: string[]) =>
  cli(['record', '--root', root, '--model-url', model.url(behaviour), '--model', 'stand-in-1', ...more], {
    CONCORD_MODEL_API_KEY: KEY,
  });

/**
 * The stand-in's `ok` conversation recorded once, for both languages, into a project of its own: tests read it or take
 * a copy.
 */
let okRecording: Promise<{ model: StandInModel; root: string; run: Ran }> | undefined;
const recordedOk = () =>
  (okRecording ??= (async () => {
    const model = await standIn();
    const root = await project();
    return { model, root, run: await record(model, root, 'ok') };
  })());

/** A copy of the recorded project, its scenario changed by `edit`. */
async function recordedCopy(edit: (scenario: string) => string = (scenario) => scenario): Promise<string> {
  const { root, run } = await recordedOk();
  expect(run.status, run.stderr).toBe(0);
  const copy = await copyOf(root);
  await writeFile(join(copy, 'scenarios', 'cities.yml'), edit(SCENARIO));
  return copy;
}

afterAll(async () => {
  await Promise.all(models.map((model) => model.stop()));
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('concord record', () => {
  it('explains itself, and refuses to start without an endpoint or model (exit 2, one line)', async () => {
    const model = await standIn();
    const root = await project();
    const env = { CONCORD_MODEL_BASE_URL: undefined, CONCORD_MODEL_NAME: undefined, CONCORD_MODEL_API_KEY: KEY };
    const withContainer = await project(
      SCENARIO.replace('runtimes: [typescript, python]', 'runtimes: [typescript, python, python-container]'),
    );
    const [help, noUrl, noModel, badRetries, noEngine] = await Promise.all([
      cli(['record', '--help']),
      cli(['record', '--root', root], env),
      cli(['record', '--root', root], { ...env, CONCORD_MODEL_BASE_URL: model.url('ok') }),
      cli(['record', '--root', root, '--model-url', model.url('ok'), '--model', 'm', '--model-retries', 'many'], env),
      // A closed port on loopback: no Docker engine answers there.
      cli(
        [
          'record',
          '--root',
          withContainer,
          '--model-url',
          model.url('ok'),
          '--model',
          'm',
          '--runtime',
          'python-container',
        ],
        { ...env, DOCKER_HOST: 'tcp://127.0.0.1:9' },
      ),
    ]);
    expect(help.status).toBe(0);
    for (const flag of [
      '--scenario',
      '--runtime',
      '--root',
      '--force',
      '--model-url',
      '--model',
      '--model-timeout-ms',
      '--model-retries',
      'CONCORD_MODEL_API_KEY',
    ])
      expect(help.stdout).toContain(flag);
    expect(noUrl.status).toBe(2);
    expect(noUrl.stderr).toBe(
      'concord record: no model endpoint: pass --model-url https://host/v1 or set CONCORD_MODEL_BASE_URL (an OpenAI-compatible endpoint)\n',
    );
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toBe('concord record: no model name: pass --model NAME or set CONCORD_MODEL_NAME\n');
    expect(badRetries.status).toBe(2);
    expect(badRetries.stderr).toBe('concord record: --model-retries many: expected a whole number of at least 0\n');
    // A runtime that cannot run here names a runtime of its language that can, since the recording is per language.
    expect(noEngine.status, noEngine.stdout + noEngine.stderr).toBe(2);
    expect(noEngine.stderr).toMatch(
      /^concord record: python-container cannot run here: no Docker engine answers \(DOCKER_HOST=tcp:\/\/127\.0\.0\.1:9 does not answer.*; record on --runtime python or pyodide instead\n$/s,
    );
    expect(model.seen).toEqual([]);
    expect([...(await tree(root)).keys()].sort()).toEqual(['scenarios/cities.yml', 'scenarios/plugins/cities.mjs']);
    expect([...(await tree(withContainer)).keys()].sort()).toEqual([
      'scenarios/cities.yml',
      'scenarios/plugins/cities.mjs',
    ]);
  });

  it('records once, then the gate replays keyless with the model gone; the key is nowhere', {
    timeout: 600_000,
  }, async () => {
    // Not about a cold start: the gates start from the verdicts earlier gates of the run computed, and leave theirs.
    // The gate of a project not recorded yet runs beside the recording of its copy, on typescript alone: its pairs
    // stop before they run, and a Python pair would only start the interpreters' checkers (a Pyodide boot) for nothing.
    const unrecorded = await project();
    const [before, { model, root: recordedRoot, run: recorded }] = await Promise.all([
      cli(['gate', '--root', unrecorded, '--runtime', 'typescript']),
      recordedOk(),
    ]);
    expect(before.status).toBe(1);
    expect(before.stdout).toContain(
      'not recorded yet for typescript (the script holds only its user turn) — run concord record --scenario cities',
    );

    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(0);
    expect(recorded.stdout).toContain(`recording from stand-in-1 at ${model.url('ok')}`);
    expect(recorded.stdout).toMatch(/✓ cities × typescript \(typescript\): 1 run_code call\(s\)/);
    expect(recorded.stdout).toMatch(/✓ cities × python \(python\): 1 run_code call\(s\)/);
    // The key went to the endpoint, as a bearer token.
    expect(model.seen.length).toBeGreaterThan(0);
    expect(model.seen.every((s) => s.path.startsWith('/ok/') && s.authorization === `Bearer ${KEY}`)).toBe(true);

    const files = await tree(recordedRoot);
    expect([...files.keys()].filter((f) => f.startsWith('scenarios/')).sort()).toEqual([
      'scenarios/cities.recorded.python.yml',
      'scenarios/cities.recorded.typescript.yml',
      'scenarios/cities.yml',
      'scenarios/plugins/cities.mjs',
    ]);
    expect(files.get('scenarios/cities.yml')).toBe(SCENARIO);
    const python = files.get('scenarios/cities.recorded.python.yml')!;
    expect(python).toContain('model: stand-in-1');
    expect(python).toContain('runtime: python');
    expect(python).toContain('python: |\n          cities = (await tools.list_cities({}))["cities"]');
    expect(python).not.toContain('typescript:');
    expect(files.get('scenarios/cities.recorded.typescript.yml')).toContain('return cities.map((c) => c.name);');

    const root = await copyOf(recordedRoot);
    await seedCache(root);
    const update = await cli(['gate', '--root', root, '--update=new'], { CI: undefined });
    expect(update.stdout, update.stderr + String(update.status)).toContain('gate: everything agrees');
    expect(update.status).toBe(0);

    await model.stop();
    const ci = await cli(['gate', '--root', root], {
      CI: 'true',
      CONCORD_MODEL_BASE_URL: undefined,
      CONCORD_MODEL_API_KEY: undefined,
    });
    expect(ci.stdout).toContain('2 run(s): 2 pass');
    expect(ci.status).toBe(0);
    await keepCache(root);

    const everything = [
      ...(await tree(root)).values(),
      ...[before, recorded, update, ci].flatMap((r) => [r.stdout, r.stderr]),
    ].join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(3));
    expect(everything.toLowerCase()).not.toContain('bearer');
  });

  it('refuses to replace a conversation without --force, saying what it would replace; --force keeps comments and layout', {
    timeout: 300_000,
  }, async () => {
    const model = await standIn();
    const handWritten = SCENARIO.replace(
      '  - user: Which cities have a forecast?\n',
      `  - user: Which cities have a forecast?
  # written by hand before recording existed
  - assistant:
      run_code:
        description: List them
        typescript: return (await tools.list_cities({})).cities.length;
        python: return len((await tools.list_cities({}))["cities"])
  - final: Three.
`,
    );
    const root = await project(handWritten);
    const refused = await record(model, root, 'ok', '--scenario', 'cities');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('recording would replace:');
    expect(refused.stderr).toContain(
      'scenarios/cities.yml: its hand-written conversation (1 run_code step(s) and a final answer, lines 19–24) is removed; the user turn stays',
    );
    expect(refused.stderr).toContain('pass --force');
    expect(model.seen).toEqual([]);
    expect([...(await tree(root)).entries()].filter(([f]) => !f.startsWith('scenarios/plugins/'))).toEqual([
      ['scenarios/cities.yml', handWritten],
    ]);

    const forced = await record(model, root, 'ok', '--scenario', 'cities', '--runtime', 'typescript', '--force');
    expect(forced.stderr).toBe('');
    expect(forced.status).toBe(0);
    const files = await tree(root);
    expect(files.get('scenarios/cities.yml')).toBe(SCENARIO);
    expect([...files.keys()].sort()).toEqual([
      'scenarios/cities.recorded.typescript.yml',
      'scenarios/cities.yml',
      'scenarios/plugins/cities.mjs',
    ]);

    const again = await record(model, root, 'ok', '--scenario', 'cities', '--runtime', 'typescript');
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(
      'scenarios/cities.recorded.typescript.yml: the typescript recording from stand-in-1 (1 run_code call(s)) is replaced',
    );
    expect(await tree(root)).toEqual(files);
  });

  it('retries a 429 with backoff and then records; without --scenario it records only what is missing', {
    timeout: 120_000,
  }, async () => {
    const model = await standIn();
    const root = await project();
    const flaky = await record(model, root, 'flaky', '--runtime', 'typescript');
    expect(flaky.stderr).toBe('');
    expect(flaky.status).toBe(0);
    expect(model.seen.length).toBe(4);
    expect((await tree(root)).has('scenarios/cities.recorded.typescript.yml')).toBe(true);

    // Without --scenario, record completes what is missing and keeps what is recorded.
    const rest = await record(model, root, 'ok');
    expect(rest.status).toBe(0);
    expect(rest.stdout).toContain('✓ cities × python (python)');
    expect(rest.stdout).not.toContain('cities × typescript');
    const none = await record(model, root, 'ok');
    expect(none.status).toBe(0);
    expect(none.stdout).toContain('nothing to record: every scenario has a hand-written or recorded conversation');
  });

  // The cases run side by side, each with its own model: a failing record is mostly waiting (backoff, the hang's
  // timeout).
  // The hang's timeout leaves the request time to reach the model however busy the machine is, so that it is always
  // counted.
  const failures: Array<[string, string[], string, number | undefined]> = [
    [
      'status-400',
      [],
      `cities × typescript: ${'http://127.0.0.1:PORT/status-400/v1'} answered HTTP 400: refused; you sent authorization: Bearer [redacted]; nothing was written`,
      1,
    ],
    [
      'status-503',
      ['--model-retries', '2'],
      'answered HTTP 503 (after 3 attempts): refused; you sent authorization: Bearer [redacted]; nothing was written',
      3,
    ],
    ['hang', ['--model-timeout-ms', '2000'], 'did not answer within 2000 ms; nothing was written', 1],
    ['junk', [], 'answered with something that is not JSON: "<html>gateway error</html>"; nothing was written', 1],
    ['huge', [], 'answered with more than 4000000 bytes; concord stopped reading; nothing was written', 1],
    [
      'unknown-tool',
      [],
      'answer 1: the model called "delete_everything", a tool the request does not offer (offered: run_code); nothing was written',
      1,
    ],
    [
      'loop',
      [],
      'agent: the model gave no final answer within 3 turns (raise maxTurns in the agent config if the task needs more); nothing was written',
      3,
    ],
    [
      'fail-python',
      ['--runtime', 'typescript', 'python'],
      'cities × python: http://127.0.0.1:PORT/fail-python/v1 answered HTTP 400: no Python today; nothing was written',
      undefined,
    ],
  ];
  it.concurrent.each(failures)(
    'fails on %s with one line, exit 1, nothing written and no key shown',
    { timeout: 120_000 },
    async (behaviour, flags, line, requests) => {
      const model = await standIn();
      const root = await project();
      const runtimes = flags.includes('--runtime') ? [] : ['--runtime', 'typescript'];
      const failed = await record(model, root, behaviour, ...runtimes, ...flags);
      expect(failed.status).toBe(1);
      const lines = failed.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(line.replace('PORT', new URL(model.url('x')).port));
      // The model may take a moment to read a request the CLI gave up on.
      if (requests !== undefined) await vi.waitFor(() => expect(model.seen.length).toBe(requests), { timeout: 10_000 });
      expect([...(await tree(root)).keys()].sort()).toEqual(['scenarios/cities.yml', 'scenarios/plugins/cities.mjs']);
      expect(failed.stdout + failed.stderr).not.toContain(KEY);
    },
  );
});

describe('concord gate --live', () => {
  it('reports where the live conversation departs from the recording, writes nothing, and fails only with --live-fail', {
    timeout: 300_000,
  }, async () => {
    const model = await standIn();
    const root = await recordedCopy();
    const before = await tree(root);
    const live = (behaviour: string, ...more: string[]) =>
      cli(['gate', '--root', root, '--live', '--model-url', model.url(behaviour), '--model', 'stand-in-2', ...more], {
        CONCORD_MODEL_API_KEY: KEY,
      });

    const same = await live('ok');
    expect(same.stdout).toContain('✓ same    cities × typescript');
    expect(same.stdout).toContain('✓ same    cities × python');
    expect(same.stdout).toContain('drift watch: every conversation is as recorded');
    expect(same.status).toBe(0);

    const drifted = await live('other');
    expect(drifted.stdout).toContain(
      '~ drift   cities × python\n    step 2 departs: recorded assistant, live assistant',
    );
    expect(drifted.stdout).toContain('--- scenarios/cities.recorded.python.yml (recorded)\n    +++ stand-in-2 (live)');
    expect(drifted.stdout).toContain('\n    -        return [c["name"] for c in cities]\n');
    expect(drifted.stdout).toContain('\n    +        return len(cities)\n');
    expect(drifted.stdout).toContain('\n    ~         return [-[c["name"] for c in -]{+len(+}cities[-]-]{+)+}\n');
    expect(drifted.stdout).toContain('drift watch: drifted (reported only; --live-fail makes this exit 1)');
    expect(drifted.status).toBe(0);
    const strict = await live('other', '--live-fail', '--scenario', 'cities', '--runtime', 'typescript');
    expect(strict.stdout).toContain('~ drift   cities × typescript');
    expect(strict.stdout).not.toContain('cities × python');
    expect(strict.status).toBe(1);

    const down = await live('status-500', '--model-retries', '0', '--runtime', 'typescript');
    expect(down.stdout).toContain('✗ failed  cities × typescript\n    http://127.0.0.1:');
    expect(down.stdout).toContain(
      'answered HTTP 500 (after 1 attempts): refused; you sent authorization: Bearer [redacted]',
    );
    expect(down.status).toBe(1);

    expect(await tree(root)).toEqual(before);
    for (const r of [same, drifted, strict, down]) expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});

/** A key with characters that URL-encoding and base64 change, so each echoed form differs from the key. */
const HOSTILE_KEY = 'sk-Concord/Test+9f8e=7d6c5b4a';

/** Every form of HOSTILE_KEY the stand-in echoes, and the key without its prefix, found in `text`. */
function leaks(text: string): string[] {
  const forms = [
    HOSTILE_KEY,
    HOSTILE_KEY.slice(3),
    HOSTILE_KEY.toUpperCase(),
    HOSTILE_KEY.toLowerCase(),
    encodeURIComponent(HOSTILE_KEY),
    Buffer.from(HOSTILE_KEY).toString('base64').replace(/=+$/, ''),
    Buffer.from(`Bearer ${HOSTILE_KEY}`).toString('base64').replace(/=+$/, ''),
  ];
  return forms.filter((form) => text.includes(form));
}

const hostile = (model: StandInModel, root: string, behaviour: string, ...more: string[]) =>
  cli(['record', '--root', root, '--model-url', model.url(behaviour), '--model', 'stand-in-1', ...more], {
    CONCORD_MODEL_API_KEY: HOSTILE_KEY,
  });

// The last test there runs concord as nobody, as a CI job that is not root runs it.
const asNobody = await Host.with('concord as nobody');

describe('the model key is never written or shown', () => {
  it('is scrubbed from a recording in every form the model echoes it, and never reaches a run (as root)', {
    timeout: 600_000,
  }, async () => {
    const model = await standIn();
    const root = await project();
    const recorded = await hostile(model, root, 'echo-key');
    expect(recorded.stderr).toBe('');
    expect(recorded.status).toBe(0);
    // The key went to the endpoint.
    expect(model.seen.some((s) => s.path.startsWith('/echo-key/') && s.authorization === `Bearer ${HOSTILE_KEY}`)).toBe(
      true,
    );
    expect(recorded.stdout).toMatch(
      /note: the model echoed the key \d+ time\(s\) in scenarios\/cities\.recorded\.python\.yml; each is written as \[redacted\]/,
    );
    const files = await tree(root);
    for (const language of ['python', 'typescript']) {
      const text = files.get(`scenarios/cities.recorded.${language}.yml`)!;
      expect(leaks(text)).toEqual([]);
      expect(text).toContain('description: Look for [redacted]');
      // Neither the run's environment nor any /proc/<pid>/environ it can read holds the key.
      expect(text).toMatch(/"environ": ?false/);
      expect(text).toMatch(/"proc": ?0\b/);
    }
    expect(files.get('scenarios/cities.recorded.python.yml')).toContain('key = "[redacted]"');
    expect(leaks(recorded.stdout + recorded.stderr)).toEqual([]);

    // The gate replays the scrubbed conversation; nothing it prints or writes holds the key.
    await seedCache(root);
    const update = await cli(['gate', '--root', root, '--update=new'], {
      CI: undefined,
      CONCORD_MODEL_API_KEY: HOSTILE_KEY,
    });
    expect(update.stdout).toContain('gate: everything agrees');
    expect(update.status).toBe(0);
    expect(leaks([...(await tree(root)).values(), update.stdout, update.stderr].join('\n'))).toEqual([]);
  });

  it('is scrubbed from what gate --live prints, on every runtime', { timeout: 600_000 }, async () => {
    const model = await standIn();
    // The recording of the typescript and python languages serves the pyodide runtime too.
    const root = await recordedCopy((scenario) =>
      scenario.replace('runtimes: [typescript, python]', 'runtimes: [typescript, python, pyodide]'),
    );
    const live = await cli(
      ['gate', '--root', root, '--live', '--model-url', model.url('echo-key'), '--model', 'stand-in-2'],
      { CONCORD_MODEL_API_KEY: HOSTILE_KEY },
    );
    expect(live.stdout).toContain('~ drift   cities × pyodide');
    expect(live.stdout).toContain('[redacted]');
    expect(leaks(live.stdout + live.stderr)).toEqual([]);
  });

  it('is scrubbed from error lines: a tool named after it, an HTTP error naming it upper-cased and in base64, a query echoed back', {
    timeout: 300_000,
  }, async () => {
    const model = await standIn();
    const root = await project();
    const [tool, status] = await Promise.all([
      hostile(model, root, 'key-tool', '--runtime', 'typescript'),
      hostile(model, root, 'key-status', '--runtime', 'typescript'),
    ]);
    expect(tool.status).toBe(1);
    expect(tool.stderr).toContain('the model called "[redacted]", a tool the request does not offer');
    expect(status.status).toBe(1);
    expect(status.stderr).toContain('answered HTTP 401: no access for [redacted] ([redacted]');
    for (const failed of [tool, status]) expect(leaks(failed.stdout + failed.stderr)).toEqual([]);
    expect([...(await tree(root)).keys()].sort()).toEqual(['scenarios/cities.yml', 'scenarios/plugins/cities.mjs']);

    // A key in the endpoint's query is sent (the URL is built with its query kept) and never written or printed.
    const query = await cli(
      [
        'record',
        '--root',
        root,
        '--runtime',
        'typescript',
        '--model-url',
        `${model.url('echo-url')}?api-key=${encodeURIComponent(HOSTILE_KEY)}`,
        '--model',
        'stand-in-1',
      ],
      {},
    );
    expect(query.status).toBe(0);
    expect(model.seen.at(-1)!.path).toBe(`/echo-url/v1/chat/completions?api-key=${encodeURIComponent(HOSTILE_KEY)}`);
    expect(query.stdout).toContain(`recording from stand-in-1 at ${model.url('echo-url')}\n`);
    expect(leaks([...(await tree(root)).values(), query.stdout, query.stderr].join('\n'))).toEqual([]);
    expect((await tree(root)).get('scenarios/cities.recorded.typescript.yml')).toContain(
      'final: You asked on /echo-url/v1/chat/completions?[redacted]',
    );
  });

  it('refuses a recording that would still hold it (a user turn naming it), exit 2, nothing written', {
    timeout: 300_000,
  }, async () => {
    const model = await standIn();
    const root = await project(
      SCENARIO.replace('Which cities have a forecast?', `Which cities have a forecast? My key is ${HOSTILE_KEY}`),
    );
    const refused = await hostile(model, root, 'ok', '--runtime', 'typescript');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      'concord record: scenarios/cities.recorded.typescript.yml: the recording would still hold the model key (in a part concord does not rewrite, such as the model name); nothing was written\n',
    );
    expect([...(await tree(root)).keys()].sort()).toEqual(['scenarios/cities.yml', 'scenarios/plugins/cities.mjs']);
  });

  asNobody.it(
    'not as root, python runs get a /proc of their own where user namespaces can be made, else live mode refuses them unless --allow-key-exposure',
    { timeout: 300_000 },
    async () => {
      const model = await standIn();
      const nobody = { uid: 65534, gid: 65534 };
      const root = await project();
      for (const path of [
        root,
        join(root, 'scenarios'),
        join(root, 'scenarios', 'plugins'),
        join(root, 'scenarios', 'cities.yml'),
        join(root, 'scenarios', 'plugins', 'cities.mjs'),
      ])
        await chown(path, nobody.uid, nobody.gid);
      const env = { CONCORD_MODEL_API_KEY: HOSTILE_KEY, HOME: root, TMPDIR: undefined };
      const record = (...more: string[]): Promise<Ran> =>
        cli(
          [
            'record',
            '--root',
            root,
            '--runtime',
            'python',
            ...more,
            '--model-url',
            model.url('echo-key'),
            '--model',
            'stand-in-1',
          ],
          env,
          nobody,
        );
      const userNamespaces =
        spawnSync('unshare', ['--user', '--map-root-user', 'true'], { ...nobody, stdio: 'ignore' }).status === 0;
      if (userNamespaces) {
        // The runs' own user namespace gives them a /proc of their own: the key is in none they can read.
        const recorded = await record();
        expect(recorded.stderr).toMatch(/^concord: CPython process runs are not isolated from: other runs/);
        expect(recorded.stderr).not.toContain('environ');
        expect(recorded.status).toBe(0);
        const text = (await tree(root)).get('scenarios/cities.recorded.python.yml')!;
        expect(text).toMatch(/"proc": ?0\b/);
        expect(text).toMatch(/"environ": ?false/);
        expect(leaks(text + recorded.stdout + recorded.stderr)).toEqual([]);
        return;
      }
      const [refused, drift] = await Promise.all([
        record(),
        cli(
          [
            'gate',
            '--root',
            root,
            '--live',
            '--runtime',
            'python',
            '--model-url',
            model.url('echo-key'),
            '--model',
            'stand-in-1',
          ],
          env,
          nobody,
        ),
      ]);
      expect(refused.stderr).toMatch(
        /^concord record: python runs share concord's account here \(uid 65534, not root, and no user namespace can be made\), so a program could read CONCORD_MODEL_API_KEY from \/proc\/\d+\/environ; .* or pass --allow-key-exposure to accept that risk\n$/,
      );
      expect(refused.status).toBe(2);
      expect(drift.stderr).toContain('or pass --allow-key-exposure to accept that risk');
      expect(drift.status).toBe(2);
      expect(model.seen).toEqual([]);

      // With the flag the run goes ahead and shows the boundary: the program finds the key in concord's /proc environ.
      const allowed = await record('--allow-key-exposure');
      expect(allowed.stderr).toMatch(/^concord: CPython process runs are not isolated from: other runs/);
      expect(allowed.status).toBe(0);
      const text = (await tree(root)).get('scenarios/cities.recorded.python.yml')!;
      expect(text).toMatch(/"proc": ?[1-9]/);
      expect(leaks(text + allowed.stdout)).toEqual([]);
    },
  );
});
