import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import type { StartedTestContainer } from 'testcontainers';
import { unicodeTableOf } from '../../codemode/index.js';
import { CPYTHON_IMAGES } from '../../runtimes/cpython/images.js';
import { EXIT_WHEN_HOST_GONE, withHostStdin } from '../../runtimes/seam/container-tether.js';
import { containerUnavailable, dockerEngine } from '../../runtimes/seam/docker-engine.js';
import { requireLocalImage } from '../../runtimes/seam/local-image.js';
import { ownedContainerLabels } from '../../runtimes/seam/owned-containers.js';
import { testcontainers } from '../../runtimes/seam/testcontainers.js';
import { Checker, type CheckerProcess } from './checker.js';
import { CHECKER_SCRIPT, IMPORT_SECONDS } from './import-script.js';
import { readCompileReport, readVerifyReport } from './report.js';
import type { CompileReport, PythonInterpreter, VerifyReport } from './types.js';

/** Compiling needs no privileges: the batch runs as nobody, like programs in the runtime containers. */
const USER = '65534:65534';
/** Seconds without a batch (and with nothing running) after which the container ends and removes itself. */
const IDLE_SECONDS = 120;
const HEARTBEAT = '/tmp/alive';
/**
 * PID 1. Each batch is a `docker exec` beside it that touches the heartbeat first. The container ends itself
 * once idle, and at once when the host is gone (SIGKILL, a CI timeout): its attached stdin closes.
 */
const keeper = (idleSeconds: number) =>
  [
    EXIT_WHEN_HOST_GONE,
    'import os, signal, sys, time',
    'signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))',
    `open("${HEARTBEAT}", "a").close()`,
    'while True:',
    // As often as the idle time needs, at most every 5 s.
    `    time.sleep(${Math.min(5, idleSeconds)})`,
    '    busy = [p for p in os.listdir("/proc") if p.isdigit() and p != "1"]',
    `    if not busy and time.time() - os.stat("${HEARTBEAT}").st_mtime > ${idleSeconds}:`,
    '        sys.exit(0)',
  ].join('\n');
const TOUCH = `import os; open("${HEARTBEAT}", "a").close(); os.utime("${HEARTBEAT}")\n`;

interface Running {
  started: StartedTestContainer;
  docker: Dockerode;
}

/**
 * The CPython of one runtime image. One container (no network, read-only root, limits) starts on the first
 * batch and stays until dispose(); its checker, one exec beside the keeper, serves every batch on its stdin
 * and is closed after `idleSeconds` without one (the keeper then ends the container; a later batch starts both
 * anew).
 */
export class ContainerInterpreter implements PythonInterpreter {
  readonly kind = 'container';
  readonly label: string;
  readonly detail: string;
  readonly unicode: string;
  #running: Promise<Running> | undefined;
  #identity: Promise<string> | undefined;
  readonly #checker: Checker;

  constructor(
    readonly version: string,
    readonly image: string,
    private readonly idleSeconds = IDLE_SECONDS,
  ) {
    this.label = `container ${version}`;
    this.detail = image;
    this.unicode = unicodeTableOf(version as `3.${number}`).version;
    // Closed after as long idle as the keeper waits, so the keeper can end the container.
    this.#checker = new Checker({
      who: `${this.label} (${image}):`,
      start: () => this.#startChecker(),
      idleMs: idleSeconds * 1000,
    });
  }

  /** The image's id: a rebuilt image (another CPython patch release, another Debian) is another interpreter. */
  identity(): Promise<string> {
    this.#identity ??= (async () => {
      const client = await dockerEngine();
      const { Id } = await client.container.dockerode.getImage(this.image).inspect();
      return `container ${this.image} ${Id}`;
    })();
    this.#identity.catch(() => (this.#identity = undefined));
    return this.#identity;
  }

  /** Starts the container and its checker now, so the first batch does not wait for them. */
  start(): Promise<void> {
    return this.#checker.start().catch(() => undefined);
  }

  async compile(sources: readonly string[]): Promise<CompileReport> {
    return readCompileReport(
      await this.#checker.request({ sources, verify: false }, 120_000),
      sources.length,
      `${this.label} (${this.image})`,
    );
  }

  /**
   * One batch of the checker: compiles and executes the modules in the container: no network, read-only root, nobody, a
   * small /tmp.
   */
  async verify(sources: readonly string[]): Promise<VerifyReport> {
    const text = await this.#checker.request({ sources, verify: true }, (sources.length + 2) * IMPORT_SECONDS * 1000);
    return readVerifyReport(text, sources.length, `${this.label} (${this.image})`);
  }

  /** The checker: one exec beside the keeper, serving batches on its stdin and stdout until it is closed. */
  async #startChecker(): Promise<CheckerProcess> {
    let { started, docker } = await this.#start();
    const container = docker.getContainer(started.getId());
    // The keeper ends an idle container: start a fresh one rather than fail the batch.
    if (
      !(await container.inspect().then(
        (info) => info.State.Running,
        () => false,
      ))
    ) {
      this.#running = undefined;
      ({ started, docker } = await this.#start());
    }
    const exec = await docker.getContainer(started.getId()).exec({
      Cmd: ['python3', '-I', '-c', TOUCH + CHECKER_SCRIPT],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: USER,
      WorkingDir: '/tmp',
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex & Partial<Pick<Socket, 'ref' | 'unref'>>;
    const reports = new PassThrough();
    const stderr = new PassThrough();
    docker.modem.demuxStream(stream, reports, stderr);
    let tail = '';
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => (tail = (tail + chunk).slice(-2000)));
    stream.on('error', () => {});
    const ended = new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
    }).then(async () => {
      stream.destroy();
      const code = await exec.inspect().then(
        ({ ExitCode }) => String(ExitCode),
        () => 'an unknown status',
      );
      return `the checker exited with ${code}: ${tail}`;
    });
    return {
      requests: stream,
      reports,
      ended,
      // Nothing but the container holds the checker's forks: a checker that must die takes its container along.
      kill: async () => {
        stream.destroy();
        await this.#stopContainer();
      },
      close: async () => {
        // Half-closing the hijacked connection closes the exec's stdin: the checker exits.
        stream.end();
        await ended;
      },
      ref: (on) => (on ? stream.ref?.() : stream.unref?.()),
    };
  }

  async dispose(): Promise<void> {
    await this.#checker.dispose();
    await this.#stopContainer();
  }

  async #stopContainer(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    const started = await running?.then((r) => r.started).catch(() => undefined);
    if (started === undefined) return;
    // The container may have ended (and removed) itself while idle.
    await started.stop({ remove: true, timeout: 0 }).catch(() => undefined);
  }

  #start(): Promise<Running> {
    this.#running ??= (async () => {
      const client = await dockerEngine();
      const { GenericContainer } = await testcontainers();
      const container = withHostStdin(new GenericContainer(this.image), client.container.dockerode)
        .withNetworkMode('none')
        .withUser(USER)
        .withTmpFs({ '/tmp': 'rw,nosuid,nodev,size=16m' })
        .withResourcesQuota({ memory: 0.25, cpu: 1 })
        // Removed when this process exits without dispose() (Ryuk is off here).
        .withLabels(ownedContainerLabels({ 'org.concord.role': 'compile' }))
        .withAutoRemove(true)
        .withCommand(['python3', '-I', '-S', '-c', keeper(this.idleSeconds)]);
      container.withStartupTimeout(60_000);
      await requireLocalImage(this.image);
      const started = await container.start();
      return { started, docker: client.container.dockerode };
    })();
    // A failed start is not kept: the next batch tries again.
    this.#running.catch(() => (this.#running = undefined));
    return this.#running;
  }
}

/**
 * One interpreter per runtime image the Docker engine holds; `absent` says, once, why any are missing
 * (no engine at all, or an image not built).
 */
export async function containerInterpreters(): Promise<{ interpreters: ContainerInterpreter[]; absent: string[] }> {
  try {
    await dockerEngine();
  } catch {
    const reason = await containerUnavailable(CPYTHON_IMAGES[0]!.tag);
    return { interpreters: [], absent: [`containers: ${reason ?? 'no Docker engine answers'}`] };
  }
  const interpreters: ContainerInterpreter[] = [];
  const absent: string[] = [];
  const reasons = await Promise.all(CPYTHON_IMAGES.map((image) => containerUnavailable(image.tag)));
  CPYTHON_IMAGES.forEach((image, i) => {
    const reason = reasons[i];
    if (reason === undefined) interpreters.push(new ContainerInterpreter(image.python, image.tag));
    else absent.push(`container ${image.python}: ${reason}`);
  });
  return { interpreters, absent };
}
