import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { executablesOnPath } from '../../runtimes/seam/executables.js';
import { onHostExit } from '../../runtimes/seam/host-exit.js';
import type { VerdictCache } from '../cache/verdict-cache.js';
import { Checker, type CheckerProcess } from './checker.js';
import { CHECKER_SCRIPT, IMPORT_SECONDS } from './import-script.js';
import { type ProbeAnswer, ProbeCache, type Probed } from './probe-cache.js';
import { readCompileReport, readVerifyReport } from './report.js';
import { type CompileReport, compareVersions, type PythonInterpreter, type VerifyReport } from './types.js';

/** A CPython binary on this machine. */
export interface Interpreter {
  /** `3.9` */
  version: string;
  executable: string;
  /** `3.9.18` */
  python: string;
  /** `unicodedata.unidata_version` */
  unicode: string;
  /** `sys.version`: the version with its build (date, compiler); absent when not measured. */
  build?: string;
}

/** The oldest CPython worth listing: the identifier tables start with 3.8's Unicode 12.1. */
const OLDEST_MINOR = 8;

/**
 * pyenv's root: PYENV_ROOT, else pyenv's default `~/.pyenv` when it holds versions, else what `pyenv root`
 * says (a bash script: asked only when pyenv is on PATH and neither answers).
 */
function pyenvRoot(): string | undefined {
  if (process.env.PYENV_ROOT) return process.env.PYENV_ROOT;
  const usual = path.join(homedir(), '.pyenv');
  if (existsSync(path.join(usual, 'versions'))) return usual;
  if (executablesOnPath('pyenv').length === 0) return undefined;
  try {
    return execFileSync('pyenv', ['root'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Prints the version, the release, the Unicode version, `sys.version` and the files mapped into the process
 * (the binary, libpython, the extension modules loaded; none where /proc is missing), which say when a kept
 * answer is out of date (probe-cache.ts).
 */
const PROBE = [
  'import json, sys, unicodedata',
  'files = set()',
  'try:',
  '    with open("/proc/self/maps") as maps:',
  '        for line in maps:',
  '            fields = line.rstrip("\\n").split(None, 5)',
  '            if len(fields) == 6 and fields[5].startswith("/"):',
  '                files.add(fields[5])',
  'except OSError:',
  '    pass',
  'print(json.dumps(["%d.%d" % sys.version_info[:2], "%d.%d.%d" % sys.version_info[:3], unicodedata.unidata_version, sys.version, sorted(files)]))',
].join('\n');

function readProbe(stdout: string): ProbeAnswer | undefined {
  try {
    const [version, python, unicode, build, files] = JSON.parse(stdout) as [string, string, string, string, string[]];
    return { probed: { version, python, unicode, build }, files };
  } catch {
    return undefined;
  }
}

function probe(executable: string): Probed | undefined {
  const result = spawnSync(executable, ['-I', '-c', PROBE], { encoding: 'utf8' });
  return result.status === 0 ? readProbe(result.stdout)?.probed : undefined;
}

function probeAsync(executable: string): Promise<ProbeAnswer | undefined> {
  return new Promise((resolve) => {
    execFile(executable, ['-I', '-c', PROBE], { encoding: 'utf8', timeout: 60_000 }, (error, stdout) =>
      resolve(error ? undefined : readProbe(stdout)),
    );
  });
}

/** `python3` and `python3.X` in one PATH directory, newest name first. */
function pathCandidates(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => /^python3(\.\d+)?$/.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

/**
 * Where a CPython may be, in order of preference: pyenv versions, then `python3` and `python3.X` on PATH (shims
 * skipped).
 */
function candidates(): string[] {
  const found: string[] = [];
  const root = pyenvRoot();
  if (root !== undefined && existsSync(path.join(root, 'versions'))) {
    for (const version of readdirSync(path.join(root, 'versions')).sort()) {
      const minor = /^(3\.\d+)\./.exec(version)?.[1];
      if (minor !== undefined) found.push(path.join(root, 'versions', version, 'bin', `python${minor}`));
    }
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && !dir.includes(`${path.sep}shims`)) found.push(...pathCandidates(dir));
  }
  return found.filter((executable) => existsSync(executable));
}

/** A name already tells the minor version (`python3.11`): such a candidate is needed only once per version. */
const namedMinor = (executable: string) => /python(3\.\d+)$/.exec(executable)?.[1];

/** Keeps the first probed interpreter of each minor version from 3.8 up, oldest version first. */
function onePer(probed: ReadonlyArray<readonly [string, Probed | undefined]>): Interpreter[] {
  const byVersion = new Map<string, Interpreter>();
  for (const [executable, found] of probed) {
    if (found === undefined || byVersion.has(found.version)) continue;
    const [major, minor] = found.version.split('.').map(Number);
    if (major === 3 && minor! >= OLDEST_MINOR) byVersion.set(found.version, { ...found, executable });
  }
  return [...byVersion.values()].sort((a, b) => compareVersions(a.version, b.version));
}

/**
 * Every CPython 3.8+ on this machine, one per minor version, oldest first: pyenv versions first, then
 * `python3` and `python3.X` on PATH (pyenv's shims skipped: slow, and they only lead to the versions above).
 */
export function findInterpreters(): Interpreter[] {
  const probed: Array<readonly [string, Probed | undefined]> = [];
  const versions = new Set<string>();
  for (const executable of candidates()) {
    // A name already tells the minor version: skip the probe when that version is found.
    const named = namedMinor(executable);
    if (named !== undefined && versions.has(named)) continue;
    const found = probe(executable);
    if (found !== undefined) versions.add(found.version);
    probed.push([executable, found]);
  }
  return onePer(probed);
}

/**
 * findInterpreters() with every candidate probed at once (the gate's inventory: discovery is on its path),
 * each file once, and with a verdict cache only when it changed since an earlier run probed it (probe-cache.ts).
 */
export async function discoverInterpreters(cache?: VerdictCache): Promise<Interpreter[]> {
  const probes = new ProbeCache(probeAsync, cache);
  const named = new Set<string>();
  const wanted = candidates().filter((executable) => {
    const minor = namedMinor(executable);
    if (minor === undefined) return true;
    if (named.has(minor)) return false;
    named.add(minor);
    return true;
  });
  return onePer(
    await Promise.all(wanted.map(async (executable) => [executable, await probes.answer(executable)] as const)),
  );
}

/** Runs a Python script with JSON on stdin and returns its stdout (one process). */
function runPython(interpreter: Pick<Interpreter, 'executable'>, script: string, input: unknown): string {
  const result = spawnSync(interpreter.executable, ['-I', '-c', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error !== undefined) throw new Error(`${interpreter.executable} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${interpreter.executable} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** Runs a Python script with JSON on stdin and returns its JSON stdout (one process). */
export function runPythonJson<T>(interpreter: Pick<Interpreter, 'executable'>, script: string, input: unknown): T {
  return JSON.parse(runPython(interpreter, script, input)) as T;
}

let unshare: string[] | undefined;

/**
 * `unshare --net --` where this process may make a network namespace (root with util-linux), so a module
 * executed here reaches no network; else nothing (the module then shares this machine's network).
 */
function withoutNetwork(): string[] {
  if (unshare === undefined) {
    const trial =
      process.getuid?.() === 0
        ? spawnSync('unshare', ['--net', '--', 'true'], { stdio: 'ignore', timeout: 10_000 })
        : undefined;
    unshare = trial?.status === 0 ? ['unshare', '--net', '--'] : [];
  }
  return unshare;
}

/**
 * Starts the checker (`script`: import-script.ts) of a local CPython: `-I`, an empty environment, a temporary
 * working folder, a network namespace of its own where one can be made, in a process group of its own that
 * is killed whole (the forks of the modules too) when it is stopped or the host exits.
 */
export function startChecker(executable: string, script = CHECKER_SCRIPT): Promise<CheckerProcess> {
  const command = [...withoutNetwork(), executable, '-I', '-c', script];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: tmpdir(),
    env: {},
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const forget = onHostExit(killGroup);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  // The forks of a checker that ended must not outlive it (nor keep its stderr, and so its end, open).
  child.once('exit', killGroup);
  const ended = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not run: ${error.message}`));
    child.once('close', (code, signal) => resolve(`failed (${signal ?? code}): ${stderr}`));
  }).finally(forget);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`${executable} could not run: ${error.message}`)));
    child.once('spawn', () =>
      resolve({
        requests: child.stdin,
        reports: child.stdout,
        ended,
        kill: async () => {
          killGroup();
          await ended;
        },
        close: async () => {
          child.stdin.end();
          await ended;
        },
        ref: (on) => {
          for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as Array<
            Pick<Socket, 'ref' | 'unref'>
          >) {
            if (on) handle.ref();
            else handle.unref();
          }
        },
      }),
    );
  });
}

/**
 * A CPython on this machine. Its checker (one process, started on the first batch) serves every batch until
 * dispose(); between batches it does not keep the host alive, and it ends when the host does.
 */
export class LocalInterpreter implements PythonInterpreter {
  readonly kind = 'local';
  readonly label: string;
  readonly version: string;
  readonly detail: string;
  readonly unicode: string;
  readonly #checker: Checker;
  #identity: Promise<string> | undefined;

  constructor(private readonly found: Interpreter) {
    this.label = `local ${found.version}`;
    this.version = found.version;
    this.detail = found.executable;
    this.unicode = found.unicode;
    this.#checker = new Checker({ who: found.executable, start: () => startChecker(found.executable) });
  }

  /**
   * What the interpreter says it is, asked once: a path can lead to another interpreter than the one found there
   * before (a wrapper script re-pointed, a version manager's shim), so its verdicts are keyed on the answer.
   */
  identity(): Promise<string> {
    this.#identity ??= this.compile([]).then(
      ({ python, build }) => `local ${python} ${build ?? this.found.build ?? ''} ${this.found.executable}`,
    );
    this.#identity.catch(() => (this.#identity = undefined));
    return this.#identity;
  }

  /** Starts the checker now, so the first batch does not wait for it. */
  start(): Promise<void> {
    return this.#checker.start().catch(() => undefined);
  }

  async compile(sources: readonly string[]): Promise<CompileReport> {
    const text = await this.#checker.request({ sources, verify: false }, 120_000);
    return readCompileReport(text, sources.length, `${this.label} (${this.detail})`);
  }

  /**
   * One batch of the checker: compiles, then executes each module in the checker's executor (a fork of it), in its
   * network namespace.
   */
  async verify(sources: readonly string[]): Promise<VerifyReport> {
    const text = await this.#checker.request({ sources, verify: true }, (sources.length + 2) * IMPORT_SECONDS * 1000);
    return readVerifyReport(text, sources.length, `${this.label} (${this.detail})`);
  }

  dispose(): Promise<void> {
    return this.#checker.dispose();
  }
}
