import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import type { GenericContainer, StartedTestContainer } from 'testcontainers';
import { EXIT_WHEN_HOST_GONE, withHostStdin } from '../seam/container-tether.js';
import { dockerEngine } from '../seam/docker-engine.js';
import { requireLocalImage } from '../seam/local-image.js';
import { ownedContainerLabels } from '../seam/owned-containers.js';
import { testcontainers } from '../seam/testcontainers.js';
import type { GuestTransport } from './guest-server.js';
import { guestServerCommand } from './guest-source.js';
import { RunChannelListener } from './run-channel.js';

/** Programs in a container run as this uid/gid whatever the image's own USER is: never root. */
export const CONTAINER_USER = '65534:65534';
const CONTAINER_OWNER = { uid: 65534, gid: 65534 };
/** Where the container sees the host's run-channel directory (mounted read-only). */
const RUN_CHANNEL_DIR = '/run/concord';
/** Processes the whole container may hold (keeper, guest server, the run and whatever it starts). */
export const CONTAINER_PIDS_LIMIT = 128;
/** Memory for the keeper and the guest server on top of what one run may use. */
const SERVER_HEADROOM_MB = 128;
const STDERR_TAIL_BYTES = 8 * 1024;

/**
 * PID 1 of the container: reaps orphans (so zombies do not eat the pids limit) and exits on SIGTERM or when
 * the host is gone. Guest servers are started beside it with `docker exec`, so a killed server never takes
 * the container down.
 */
const KEEPER = [
  EXIT_WHEN_HOST_GONE,
  'import os, signal, sys',
  'signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))',
  'signal.signal(signal.SIGCHLD, lambda *_: None)',
  'while True:',
  '    try:',
  '        while os.waitpid(-1, os.WNOHANG)[0]:',
  '            pass',
  '    except ChildProcessError:',
  '        pass',
  '    signal.pause()',
].join('\n');

/**
 * How the guest server keeps runs apart inside the container: each run works in a fresh folder under the
 * container's private /tmp, and everything in /tmp is removed once the run is over.
 */
const CONTAINER_RUN_PLACES = JSON.stringify({ scratch: '/tmp', wipe: ['/tmp'] });

/** Kills every process of the run user except PID 1 and the killer itself (kill(2) with pid -1). */
const KILL_ALL = 'import os, signal; os.kill(-1, signal.SIGKILL)';

/** The runtime container: read-only root, no network, memory / pids / CPU limits. */
async function runtimeContainer(
  image: string,
  memoryMb: number,
  runChannelDir: string,
  docker: Dockerode,
): Promise<GenericContainer> {
  const { GenericContainer } = await testcontainers();
  const container = withHostStdin(new GenericContainer(image), docker);
  const { hostConfig } = container as unknown as { hostConfig: { ReadonlyRootfs?: boolean; PidsLimit?: number } };
  hostConfig.ReadonlyRootfs = true;
  hostConfig.PidsLimit = CONTAINER_PIDS_LIMIT;
  return (
    container
      .withNetworkMode('none')
      .withUser(CONTAINER_USER)
      .withTmpFs({ '/tmp': 'rw,nosuid,nodev,size=64m' })
      // A local engine makes the host's run-channel socket reachable; a remote one mounts an empty
      // directory, and runs keep the relay through the exec stream.
      .withBindMounts([{ source: runChannelDir, target: RUN_CHANNEL_DIR, mode: 'ro' }])
      .withResourcesQuota({ memory: (memoryMb + SERVER_HEADROOM_MB) / 1024, cpu: 1 })
      .withWorkingDir('/tmp')
      // Removed when this process exits without disposing its runtimes (no reaper removes them).
      .withLabels(ownedContainerLabels({ 'org.concord.runtime': 'cpython' }))
      .withCommand(['python3', '-I', '-S', '-c', KEEPER])
  );
}

/** One long-lived runtime container; each guest server inside it is a hijacked `docker exec`. */
export class RuntimeContainerHost {
  private constructor(
    private readonly started: StartedTestContainer,
    private readonly docker: Dockerode,
    private readonly runChannel: RunChannelListener,
  ) {}

  static async start(image: string, memoryMb: number): Promise<RuntimeContainerHost> {
    // Ryuk is not available here; containers are removed by dispose() and by the exit hook instead.
    const client = await dockerEngine();
    const runChannel = await RunChannelListener.open({ owner: CONTAINER_OWNER, guestDir: RUN_CHANNEL_DIR });
    let started: StartedTestContainer;
    try {
      await requireLocalImage(image);
      started = await (await runtimeContainer(image, memoryMb, runChannel.dir, client.container.dockerode)).start();
    } catch (error) {
      await runChannel.close();
      throw error;
    }
    return new RuntimeContainerHost(started, client.container.dockerode, runChannel);
  }

  get id(): string {
    return this.started.getId();
  }

  async launchGuest(): Promise<GuestTransport> {
    const container = this.docker.getContainer(this.started.getId());
    const exec = await container.exec({
      Cmd: [...guestServerCommand('python3'), CONTAINER_RUN_PLACES],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: CONTAINER_USER,
      WorkingDir: '/tmp',
    });
    const stream = await exec.start({ hijack: true, stdin: true });
    const output = new PassThrough();
    const errors = new PassThrough();
    this.docker.modem.demuxStream(stream, output, errors);
    let stderr = '';
    errors.setEncoding('utf8');
    errors.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
    });
    const exited = new Promise<string>((resolve) => {
      let ended = false;
      const done = (): void => {
        if (ended) return;
        ended = true;
        exec.inspect().then(
          (info) => resolve(`exit ${String(info.ExitCode)}`),
          () => resolve('the exec stream closed'),
        );
      };
      stream.once('end', done);
      stream.once('close', done);
      stream.once('error', done);
    });
    void exited.then(() => output.end());
    return {
      input: stream,
      output,
      stderrTail: () => stderr,
      runChannel: this.runChannel,
      exited,
      kill: async () => {
        await this.started
          .exec(['python3', '-I', '-S', '-c', KILL_ALL], { user: CONTAINER_USER })
          .catch(() => undefined);
        stream.destroy();
        await exited;
      },
    };
  }

  async dispose(): Promise<void> {
    // Started with auto-remove: the engine may already be removing it when it stops.
    await this.started.stop({ remove: true, timeout: 0 }).catch(() => undefined);
    await this.runChannel.close();
  }
}
