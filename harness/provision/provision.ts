// `npm run provision` here, `npx concord provision` in a project: a Docker engine and the CPython runtime images,
// built idempotently. The CLI runs this module as a process of its own (it handles its signals itself). Every step
// prints one line with its timing; a failed step names itself and what to do, and exits 1.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { $, kill, ps } from 'zx';
import { runtimeImageHash } from '../../runtimes/cpython/content-hash.js';
import {
  CONTENT_HASH_LABEL,
  CPYTHON_IMAGES,
  type CpythonImage,
  cpythonImage,
  DEBIAN_MIRROR,
} from '../../runtimes/cpython/images.js';
import { onPath } from '../../runtimes/seam/executables.js';
import { alive, leftByDeadOwners } from '../../runtimes/seam/owned-temp-dir.js';
import { packageRoot, sourceAsset } from '../../runtimes/seam/package-root.js';
import { provisionCommand } from '../../runtimes/seam/provision-hint.js';

const root = packageRoot();
const cpythonDir = sourceAsset('runtimes/cpython');
const guestDir = path.join(cpythonDir, 'guest');
const dockerdLog = '/var/log/concord-dockerd.log';
const registryProbe = 'https://registry-1.docker.io/v2/';
const labels = {
  debianPackages: 'org.concord.debian-packages',
  baseId: 'org.concord.base-id',
};
/** How the user runs this where they are: `npx concord provision` in a project, `npm run provision` here. */
const self = provisionCommand(root);

/** A step that failed: what went wrong, and what to do about it. */
class StepFailure extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** What a step found: nothing to do (with the value it stands for), or a plan to run. */
type Decision<T> =
  | { skip: string; value?: T }
  | { skip?: undefined; plan: string; run: () => Promise<T>; dryValue?: T; hint?: string };

interface ImageFacts {
  id: string;
  labels: Record<string, string>;
}

type Images = Map<string, ImageFacts>;

interface Options {
  dryRun?: boolean;
  only?: CpythonImage[];
  registry: boolean;
  cacheKey?: boolean;
  imageCache?: string;
}

const cli = new Command('provision')
  .description(
    'Install and start a Docker engine (apt-get, dockerd) and build the CPython runtime images ' +
      `${CPYTHON_IMAGES.map((image) => image.tag).join(', ')}. Skips whatever already exists and matches.`,
  )
  .option('--dry-run', 'print the plan without changing anything')
  .option('--only <versions>', 'comma-separated CPython versions to build (default: all)', parseVersions)
  .option('--no-registry', 'do not probe a registry for python:3.X-slim; build bases from Debian')
  .option(
    '--cache-key',
    'print the key of the runtime images (their CPython versions and the hash of the Dockerfile and guest) and exit',
  )
  .option(
    '--image-cache <dir>',
    'load the runtime images from DIR/<key>.tar when it exists, else build them and save them there (for a CI cache)',
  )
  .showHelpAfterError()
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
cli.parse(process.argv);
const options = cli.opts<Options>();
const images: readonly CpythonImage[] = options.only ?? CPYTHON_IMAGES;
const cacheKey = `concord-images-${images.map((image) => image.python).join('-')}-${runtimeImageHash(cpythonDir).slice(0, 16)}`;
if (options.cacheKey) {
  console.log(cacheKey);
  process.exit(0);
}
const cacheFile = options.imageCache === undefined ? undefined : path.resolve(options.imageCache, `${cacheKey}.tar`);

$.verbose = false;
$.quiet = true;

// ---- interruption: Ctrl-C or a kill stops the commands this run started and removes what they were writing ----

/** What an interrupted run undoes before it exits (a debootstrap tree, a half-saved image archive), newest first. */
const undoOnInterrupt = new Set<() => Promise<void>>();
/** The dockerd this run started: it is meant to outlive the run, so an interruption leaves it running. */
let dockerdPid: number | undefined;
let interrupted = false;

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    void stopAndExit(signal, code);
  });
}

async function stopAndExit(signal: string, code: number): Promise<never> {
  console.error(`provision: interrupted (${signal}): stopping its commands and removing what they were writing`);
  await stopCommands();
  for (const undo of [...undoOnInterrupt].reverse())
    await undo().catch((error: unknown) => console.error(`provision: could not clean up: ${describe(error)}`));
  process.exit(code);
}

/** Ends every command this run started (and what each started), but the engine; waits up to 5 s, then kills. */
async function stopCommands(): Promise<void> {
  // Direct children; the lookup's own `ps` is among them, finished by the time it is signalled.
  const children = (await ps.tree({ pid: process.pid }).catch(() => []))
    .map((child) => Number(child.pid))
    .filter((pid) => pid !== dockerdPid);
  for (const pid of children) await kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 5000 && children.some(alive); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of children.filter(alive)) await kill(pid, 'SIGKILL');
}

async function provision(): Promise<void> {
  if (options.dryRun) console.log('provision: dry run, nothing is changed');
  await step('install packages', installPackages);
  const engineUp = await step('start the Docker engine', startEngine);
  if (options.dryRun && !engineUp)
    console.log('provision: no engine answers yet: the image steps assume nothing exists');
  if (
    cacheFile !== undefined &&
    (await step('load the runtime images from the cache', () => loadCachedImages(cacheFile)))
  ) {
    console.log('provision: done');
    return;
  }
  const registryAnswers = (await step('probe a registry for python:3.X-slim', probeRegistry)) ?? false;
  const bases = new Map<string, string | undefined>();
  const present = await inspectImages(images.flatMap((image) => [image.registryBase, image.debianBase]));
  for (const image of images) {
    bases.set(
      image.python,
      await step(`base image for CPython ${image.python}`, () => chooseBase(image, registryAnswers, present)),
    );
  }
  const built = await inspectImages([
    ...new Set([...[...bases.values()].filter((base) => base !== undefined), ...images.map((image) => image.tag)]),
  ]);
  for (const image of images) {
    await step(`runtime image ${image.tag}`, () => buildRuntimeImage(image, bases.get(image.python), built));
  }
  if (cacheFile !== undefined) await step('save the runtime images for the cache', () => saveCachedImages(cacheFile));
  console.log(options.dryRun ? 'provision: plan complete' : 'provision: done');
}

// ---- steps: each returns what it found; `step` prints, times and runs it ----

async function step<T>(title: string, decide: () => Decision<T> | Promise<Decision<T>>): Promise<T | undefined> {
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  let decision: Decision<T>;
  try {
    decision = await decide();
  } catch (error) {
    throw new StepFailure(
      `step "${title}": ${error instanceof StepFailure ? error.message : describe(error)}`,
      error instanceof StepFailure ? error.hint : undefined,
    );
  }
  if (decision.skip !== undefined) {
    console.log(`skip  ${title}: ${decision.skip} (${seconds()})`);
    return decision.value;
  }
  if (options.dryRun) {
    console.log(`plan  ${title}: ${decision.plan}`);
    return decision.dryValue;
  }
  console.log(`start ${title}: ${decision.plan}`);
  try {
    const value = await decision.run();
    console.log(`done  ${title} (${seconds()})`);
    return value;
  } catch (error) {
    if (error instanceof StepFailure) throw new StepFailure(`step "${title}": ${error.message}`, error.hint);
    throw new StepFailure(`step "${title}": ${describe(error)}`, decision.hint);
  }
}

function installPackages(): Decision<void> {
  const missing: string[] = [];
  if (!hasCommand('dockerd')) missing.push('docker.io');
  if (!hasCommand('debootstrap')) missing.push('debootstrap');
  if (missing.length === 0) return { skip: 'dockerd and debootstrap are installed' };
  return {
    plan: `apt-get install ${missing.join(' ')}`,
    hint: `install them yourself as root: apt-get update && apt-get install -y ${missing.join(' ')}`,
    run: async () => {
      requireRoot(`installing ${missing.join(' ')}`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      await $({ env })`apt-get update -q`;
      await $({ env })`apt-get install -y -q --no-install-recommends ${missing}`;
    },
  };
}

async function startEngine(): Promise<Decision<boolean>> {
  if (await engineAnswers()) return { skip: 'docker info answers', value: true };
  const systemd = existsSync('/run/systemd/system');
  return {
    plan: systemd ? 'systemctl start docker' : `dockerd in the background, log in ${dockerdLog}`,
    dryValue: false,
    hint: `read ${dockerdLog}; start the engine yourself (dockerd &) and check that \`docker info\` answers`,
    run: async () => {
      requireRoot('starting dockerd');
      if (systemd) await $`systemctl start docker`;
      else launchDockerd();
      await waitForEngine(60_000);
      return true;
    },
  };
}

/** With --image-cache: the images of this key, loaded once; true when every one is then current. */
async function loadCachedImages(file: string): Promise<Decision<boolean>> {
  if (!existsSync(file))
    return { skip: `${file} does not exist yet: the images are built and saved there`, value: false };
  return {
    plan: `docker load -i ${file}`,
    dryValue: false,
    run: async () => {
      await $`docker load -i ${file}`;
      const present = await inspectImages(images.map((image) => image.tag));
      const hash = runtimeImageHash(cpythonDir);
      const stale = images.filter((image) => present.get(image.tag)?.labels[CONTENT_HASH_LABEL] !== hash);
      if (stale.length > 0)
        console.log(`      ${stale.map((image) => image.tag).join(', ')} not current after the load: built again`);
      return stale.length === 0;
    },
  };
}

function saveCachedImages(file: string): Decision<void> {
  if (existsSync(file)) return { skip: `${file} exists` };
  return {
    plan: `docker save ${images.map((image) => image.tag).join(' ')} to ${file}`,
    run: async () => {
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.partial`;
      const undo = () => rm(partial, { force: true });
      undoOnInterrupt.add(undo);
      try {
        await $`docker save -o ${partial} ${images.map((image) => image.tag)}`;
        await rename(partial, file);
      } finally {
        undoOnInterrupt.delete(undo);
      }
    },
  };
}

async function probeRegistry(): Promise<Decision<boolean>> {
  if (!options.registry) return { skip: 'disabled by --no-registry', value: false };
  try {
    await fetch(registryProbe, { method: 'HEAD', signal: AbortSignal.timeout(3000) });
    return { skip: `${new URL(registryProbe).host} answers: bases are pulled`, value: true };
  } catch {
    return { skip: `${new URL(registryProbe).host} does not answer: bases come from ${DEBIAN_MIRROR}`, value: false };
  }
}

function chooseBase(image: CpythonImage, registryAnswers: boolean, present: Images): Decision<string> {
  if (present.has(image.registryBase)) return { skip: `${image.registryBase} is present`, value: image.registryBase };
  if (!registryAnswers) return chooseDebianBase(image, present);
  return {
    plan: `docker pull ${image.registryBase}`,
    dryValue: image.registryBase,
    run: async () => {
      const pulled = await $`docker pull ${image.registryBase}`.timeout('10m').nothrow();
      if (pulled.exitCode === 0) return image.registryBase;
      console.log(`      docker pull ${image.registryBase} failed: falling back to ${image.debianBase}`);
      const fallback = chooseDebianBase(image, present);
      return fallback.skip === undefined ? fallback.run() : image.debianBase;
    },
  };
}

/** Versions from one suite share its base: the first import is recorded in `present` for the next. */
function chooseDebianBase(image: CpythonImage, present: Images): Decision<string> {
  const packages = debianPackages(image.suite);
  const installed = present.get(image.debianBase)?.labels[labels.debianPackages]?.split(' ') ?? [];
  if (packages.every((name) => installed.includes(name))) {
    return { skip: `${image.debianBase} is present with ${packages.join(' ')}`, value: image.debianBase };
  }
  return {
    plan: `debootstrap --variant=minbase --include=${packages.join(',')} ${image.suite}, docker import as ${image.debianBase}`,
    dryValue: image.debianBase,
    hint: `check that ${DEBIAN_MIRROR} is reachable and that ${image.suite} ships ${packages.join(' ')} (apt-cache policy)`,
    run: async () => {
      await importDebianBase(image.suite, image.debianBase, packages);
      const imported = await inspectImage(image.debianBase);
      if (imported !== undefined) present.set(image.debianBase, imported);
      return image.debianBase;
    },
  };
}

function buildRuntimeImage(image: CpythonImage, base: string | undefined, present: Images): Decision<void> {
  const contentHash = runtimeImageHash(cpythonDir);
  const baseId = (base === undefined ? undefined : present.get(base)?.id) ?? 'not built yet';
  const current = present.get(image.tag)?.labels;
  if (current?.[CONTENT_HASH_LABEL] === contentHash && current?.[labels.baseId] === baseId) {
    return { skip: `built from this Dockerfile, guest and ${base}` };
  }
  const reason = current === undefined ? 'missing' : 'Dockerfile, guest or base changed';
  return {
    plan: `docker build on ${base} (${reason})`,
    hint: `fix the error above in runtimes/cpython/Dockerfile or the guest, then rerun ${self}`,
    run: async () => {
      if (!existsSync(guestDir)) {
        throw new StepFailure(
          `${path.relative(root, guestDir)}/ does not exist, and every runtime image copies it`,
          `restore the guest module from version control, then rerun ${self}`,
        );
      }
      const previousId = present.get(image.tag)?.id;
      // The legacy builder: this client may have no buildx plugin, and the build needs none of BuildKit.
      await $({ env: { ...process.env, DOCKER_BUILDKIT: '0' } })`docker build --network none --force-rm --quiet \
        --build-arg BASE=${base ?? ''} --build-arg PYTHON=${image.python} \
        --label ${`${CONTENT_HASH_LABEL}=${contentHash}`} --label ${`${labels.baseId}=${baseId}`} \
        --tag ${image.tag} ${cpythonDir}`;
      const { stdout } =
        await $`docker run --rm --network none ${image.tag} python3 -I -S -c ${'import sys; print("%d.%d" % sys.version_info[:2])'}`;
      if (stdout.trim() !== image.python)
        throw new StepFailure(`python3 in ${image.tag} is ${stdout.trim()}, not ${image.python}`);
      // The replaced image would linger untagged; one still used by a container stays, which is fine.
      if (previousId && previousId !== (await inspectImage(image.tag))?.id)
        await $`docker image rm ${previousId}`.nothrow();
    },
  };
}

// ---- Debian bases ----

/** Every interpreter package wanted from a suite: several versions may share one (sid ships more than one). */
function debianPackages(suite: CpythonImage['suite']): string[] {
  return CPYTHON_IMAGES.filter((image) => image.suite === suite).map((image) => image.debianPackage);
}

/**
 * A debootstrap tree is named after the run that makes it, so a later run can tell a killed run's tree from a live
 * one's.
 */
const ROOTFS = 'concord-rootfs';

async function importDebianBase(suite: CpythonImage['suite'], tag: string, packages: readonly string[]): Promise<void> {
  requireRoot('debootstrap');
  await sweepRootfs();
  const rootfs = await mkdtemp(path.join(os.tmpdir(), `${ROOTFS}-${process.pid}-${suite}-`));
  const undo = () => removeRootfs(rootfs);
  undoOnInterrupt.add(undo);
  try {
    await $`debootstrap --variant=minbase --include=${packages.join(',')} ${suite} ${rootfs} ${DEBIAN_MIRROR}`.timeout(
      '20m',
    );
    // Downloaded packages and indexes only make the image larger.
    await $`find ${path.join(rootfs, 'var/cache/apt/archives')} ${path.join(rootfs, 'var/lib/apt/lists')} -type f -delete`;
    await $`tar -C ${rootfs} -c . | docker import --change ${`LABEL ${labels.debianPackages}="${packages.join(' ')}"`} - ${tag}`;
  } finally {
    await removeRootfs(rootfs);
    undoOnInterrupt.delete(undo);
  }
}

/** Removes the debootstrap trees of runs that were killed outright (kill -9 runs no handler): their process is gone. */
async function sweepRootfs(): Promise<void> {
  for (const { path: tree, pid } of leftByDeadOwners([ROOTFS])) {
    console.log(`      removing ${tree}, left by provision run ${pid}, which was killed`);
    await removeRootfs(tree);
  }
}

/** Removals under way, by tree: an interruption and the import's own cleanup may both ask for one. */
const rootfsRemovals = new Map<string, Promise<void>>();

function removeRootfs(rootfs: string): Promise<void> {
  let removal = rootfsRemovals.get(rootfs);
  if (removal === undefined) rootfsRemovals.set(rootfs, (removal = unmountAndRemove(rootfs)));
  return removal;
}

/** A failed debootstrap can leave proc or sys mounted inside the tree: unmount before deleting. */
async function unmountAndRemove(rootfs: string): Promise<void> {
  const mounts = readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1])
    .filter((mountPoint): mountPoint is string => mountPoint?.startsWith(`${rootfs}/`) === true)
    .reverse();
  for (const mountPoint of mounts) await $`umount -l ${mountPoint}`.nothrow();
  await rm(rootfs, { recursive: true, force: true });
}

// ---- the engine ----

async function engineAnswers(): Promise<boolean> {
  if (!hasCommand('docker')) return false;
  const result = await $`docker info --format ${'{{.ServerVersion}}'}`.timeout('20s').nothrow();
  return result.exitCode === 0 && result.stdout.trim() !== '';
}

/** Why the dockerd this run started has exited, once it has. */
let dockerdExit: string | undefined;

function launchDockerd(): void {
  const log = openSync(dockerdLog, 'a');
  // Detached in its own session, so the engine outlives this run.
  const child = spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] });
  dockerdPid = child.pid;
  closeSync(log);
  child.on('exit', (code, signal) => {
    dockerdExit = `dockerd exited (${signal ?? `code ${code}`}); last lines of ${dockerdLog}:\n${tail(dockerdLog)}`;
  });
  child.unref();
}

async function waitForEngine(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (dockerdExit) throw new StepFailure(dockerdExit, `read ${dockerdLog} for the cause`);
    if (await engineAnswers()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new StepFailure(
    `docker info did not answer within ${timeoutMs / 1000} s; last lines of ${dockerdLog}:\n${tail(dockerdLog)}`,
  );
}

// ---- helpers ----

/** Id and labels of each present image among `refs`, in one engine round trip; absent refs are left out. */
async function inspectImages(refs: readonly string[]): Promise<Images> {
  const found: Images = new Map();
  if (!hasCommand('docker') || refs.length === 0) return found;
  // Exit status is 1 when any ref is absent; the present ones are still printed, one line each.
  const { stdout } =
    await $`docker image inspect --format ${'{{json .RepoTags}}\t{{.Id}}\t{{json .Config.Labels}}'} ${refs}`.nothrow();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [tags = 'null', id = '', labelsJson = 'null'] = line.split('\t');
    const image: ImageFacts = { id, labels: (JSON.parse(labelsJson) as Record<string, string> | null) ?? {} };
    for (const tag of (JSON.parse(tags) as string[] | null) ?? []) if (refs.includes(tag)) found.set(tag, image);
  }
  return found;
}

async function inspectImage(ref: string): Promise<ImageFacts | undefined> {
  return (await inspectImages([ref])).get(ref);
}

/** Whether a command is on PATH. */
function hasCommand(name: string): boolean {
  return onPath(name) !== undefined;
}

function requireRoot(what: string): void {
  if (process.getuid?.() !== 0) throw new StepFailure(`${what} needs root`, `rerun ${self} as root (CI runs as root)`);
}

function parseVersions(value: string): CpythonImage[] {
  try {
    return value.split(',').map((version) => cpythonImage(version.trim()));
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function describe(error: unknown): string {
  const failed = error as { stderr?: unknown; message?: string; exitCode?: number } | null | undefined;
  const stderr = typeof failed?.stderr === 'string' ? failed.stderr.trim() : '';
  const detail = stderr === '' ? (failed?.message ?? String(error)) : stderr.split('\n').slice(-15).join('\n');
  return failed?.exitCode === undefined ? detail : `exit code ${failed.exitCode}\n${detail}`;
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

try {
  await provision();
} catch (error) {
  // A command stopped by an interruption fails its step: the interruption's own exit reports it.
  if (interrupted) await new Promise(() => {});
  if (!(error instanceof StepFailure)) throw error;
  console.error(`provision: failed: ${error.message}`);
  if (error.hint) console.error(`provision: to fix: ${error.hint}`);
  process.exit(1);
}
