import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from './error.js';
import { parseScenario } from './load.js';
import { NotRecordedError, parseRecording, recordingPath, renderRecording, scenarioForLanguage } from './recording.js';
import type { ScriptStep } from './types.js';

const SCENARIO = `name: ask
description: Asks once.
composition:
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: How many?
`;
const steps: ScriptStep[] = [
  { kind: 'user', text: 'How many?', line: 1 },
  {
    kind: 'assistant',
    text: '',
    runCode: { description: 'Count', programs: { python: 'return len([1, 2])\n' } },
    resultIncludes: [],
    line: 2,
  },
  { kind: 'final', text: 'Two.', line: 3 },
];

let dir = '';
let file = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-recording-'));
  file = join(dir, 'ask.yml');
  await writeFile(file, SCENARIO);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('recordings beside a scenario', () => {
  it('round-trip through their file, and replace the user-turn-only script for their language', async () => {
    const scenario = parseScenario(file, SCENARIO);
    expect(() => scenarioForLanguage(scenario, 'python', dir)).toThrow(NotRecordedError);
    expect(() => scenarioForLanguage(scenario, 'python', dir)).toThrow(
      /ask\.yml: not recorded yet for python \(the script holds only its user turn\) — run concord record --scenario ask$/,
    );
    const text = renderRecording(scenario, 'python', { model: 'm-1', runtime: 'pyodide', script: steps });
    expect(text).toContain('python: |\n          return len([1, 2])\n');
    await writeFile(recordingPath(file, 'python'), text);
    const replayed = scenarioForLanguage(scenario, 'python', dir);
    expect(replayed.scriptFile).toBe(join(dir, 'ask.recorded.python.yml'));
    expect(replayed.script.map(({ line: _, ...step }) => step)).toEqual(steps.map(({ line: _, ...step }) => step));
    expect(() => scenarioForLanguage(scenario, 'typescript', dir)).toThrow(/not recorded yet for typescript/);
  });

  it('refuse a recording whose user turn changed, whose run count differs from expect.runs, or that holds another language', async () => {
    const recorded = renderRecording(parseScenario(file, SCENARIO), 'python', {
      model: 'm-1',
      runtime: 'python',
      script: steps,
    });
    await writeFile(recordingPath(file, 'python'), recorded);
    const changed = parseScenario(file, SCENARIO.replace('How many?', 'How many now?'));
    expect(() => scenarioForLanguage(changed, 'python', dir)).toThrow(
      /the recorded user turn differs from the one in ask\.yml[\s\S]*record --scenario ask --force/,
    );
    const expecting = parseScenario(file, SCENARIO + 'expect:\n  runs: [ok, ok]\n');
    expect(() => scenarioForLanguage(expecting, 'python', dir)).toThrow(
      /expect\.runs in ask\.yml lists 2 outcome\(s\) but this recording makes 1 run_code call\(s\)/,
    );
    const problem = (source: string) => {
      try {
        parseRecording('r.yml', source, 'python');
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        return (error as InputError).problem;
      }
      throw new Error('expected a refusal');
    };
    expect(problem(recorded.replace('python: |', 'typescript: |'))).toBe(
      'unknown key "typescript" in recording.script[1].assistant.run_code',
    );
    expect(problem(recorded.replace('  - final: Two.\n', ''))).toBe('the script must end with a final answer');
  });

  it('round-trip a program and an answer holding lone surrogates, written as !!binary any YAML reader takes', () => {
    const scenario = parseScenario(file, SCENARIO);
    const odd: ScriptStep[] = [
      steps[0]!,
      {
        kind: 'assistant',
        text: '',
        runCode: { description: 'Count \udc00', programs: { python: 'return "\ud800"\n' } },
        resultIncludes: [],
        line: 2,
      },
      { kind: 'final', text: 'Half a pair: \ud800.', line: 3 },
    ];
    const text = renderRecording(scenario, 'python', { model: 'm-1', runtime: 'python', script: odd });
    expect(text).toContain('!!binary');
    // The escapes libyaml refuses appear only in the comments beside the values, for the reader.
    const escaped = text.split('\n').filter((l) => /\\ud[89a-f]/.test(l));
    expect(escaped).toHaveLength(3);
    for (const line of escaped) expect(line).toMatch(/!!binary \S+ # "/);
    const read = parseRecording('r.yml', text, 'python');
    expect(read.script.map(({ line: _, ...step }) => step)).toEqual(odd.map(({ line: _, ...step }) => step));
  });

  it('refuse a recording linked to a file outside the project, reading nothing of it', async () => {
    const scenario = parseScenario(file, SCENARIO);
    const outside = await mkdtemp(join(tmpdir(), 'concord-outside-'));
    const recording = recordingPath(file, 'typescript');
    try {
      const elsewhere = join(outside, 'kept.yml');
      await writeFile(elsewhere, 'model: kept-outside\n');
      await symlink(elsewhere, recording);
      expect(() => scenarioForLanguage(scenario, 'typescript', dir)).toThrow(
        /ask\.recorded\.typescript\.yml: leads outside the project root .*keep a recording inside the project/s,
      );
      expect(() => scenarioForLanguage(scenario, 'typescript', dir)).not.toThrow(/kept-outside/);
      // A link that stays inside the project is read through (here, to the python recording: refused for its key).
      await rm(recording);
      await symlink(recordingPath(file, 'python'), recording);
      expect(() => scenarioForLanguage(scenario, 'typescript', dir)).toThrow(
        'unknown key "python" in recording.script[1].assistant.run_code',
      );
    } finally {
      await rm(recording, { force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuse a recording that is a pipe at once, rather than waiting for a writer', async () => {
    const scenario = parseScenario(file, SCENARIO);
    const recording = recordingPath(file, 'typescript');
    execFileSync('mkfifo', [recording]);
    // A writer that comes after a second: read as a file, the pipe would end empty then, not hold the test forever.
    const writer = spawn('sh', ['-c', 'sleep 1; exec 3>"$0"', recording], { stdio: 'ignore' });
    try {
      expect(() => scenarioForLanguage(scenario, 'typescript', dir)).toThrow(
        /ask\.recorded\.typescript\.yml: is not a regular file, not a recording/,
      );
    } finally {
      writer.kill();
      await rm(recording);
    }
  });
});
