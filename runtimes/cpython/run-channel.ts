import { randomBytes } from 'node:crypto';
import { chmod, chown, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { ownedTempDir } from '../seam/owned-temp-dir.js';
import type { RunChannelAddress } from './frames.js';

/**
 * A Unix socket the host listens on so that a run's forked child can speak to the host directly, instead of
 * having every frame relayed by the guest server (two extra process wake-ups per tool call and, in a
 * container, two trips through the Docker daemon). See the guest module's docstring for the handshake.
 *
 * Every run gets its own connection, accepted only with a token minted for that run and used once; the
 * socket file is owned by the account programs run as (mode 0600) inside a directory only its owner may list.
 */

/** The socket file's name inside the channel directory. */
const SOCKET_NAME = 'run.sock';
/** A Unix socket's path holds at most this many bytes (108 with its terminating NUL); a longer one is cut short. */
const MAX_SOCKET_PATH_BYTES = 107;
/** What the host answers once it has accepted a run's connection. */
const ATTACHED = '{"type":"attached"}\n';
/** A connection that has not named its run by then is dropped. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** A token line is 32 hex digits; anything longer is not one. */
const MAX_TOKEN_LINE = 64;

/** One run's offer: what goes into its `run` frame, and how to withdraw it once the run is over. */
export interface RunChannelOffer {
  readonly channel: RunChannelAddress;
  /** Refuses the token from now on; a connection already handed over is the run's to close. */
  withdraw(): void;
}

export class RunChannelListener {
  private readonly waiting = new Map<string, (socket: Socket) => void>();
  private readonly connections = new Set<Socket>();

  private constructor(
    /** The directory holding the socket, on the host. */
    readonly dir: string,
    private readonly server: Server,
    private readonly guestDir: string,
  ) {}

  /**
   * Listens in a fresh directory. `owner` is the account programs run as (default: this process's);
   * `guestDir` is where the guest finds the directory (a container sees it where it is mounted).
   */
  static async open(
    options: { owner?: { uid: number; gid: number }; guestDir?: string } = {},
  ): Promise<RunChannelListener> {
    // Removed by close, else when the host exits, else (the host was killed) by the next host's sweep.
    const dir = ownedTempDir('concord-channel');
    const socketPath = join(dir, SOCKET_NAME);
    try {
      const bytes = Buffer.byteLength(socketPath);
      if (bytes > MAX_SOCKET_PATH_BYTES) {
        throw new Error(
          `concord: the CPython runs' channel would be a Unix socket at ${socketPath}, ${bytes} bytes long, but a socket's path may be at ` +
            `most ${MAX_SOCKET_PATH_BYTES}. The temp folder (${tmpdir()}) is too deep: set TMPDIR to a shorter folder, e.g. TMPDIR=/tmp.`,
        );
      }
      const server = createServer();
      const listener = new RunChannelListener(dir, server, options.guestDir ?? dir);
      server.on('connection', (socket) => listener.handshake(socket));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(socketPath, () => resolve());
      });
      server.on('error', () => {
        // Accept errors (a flood of connections) cost a program its fast channel, never the host.
      });
      // Searchable but not listable by others, so the run's account can reach the socket it owns.
      await chmod(dir, 0o711);
      if (options.owner !== undefined) await chown(socketPath, options.owner.uid, options.owner.gid);
      await chmod(socketPath, 0o600);
      return listener;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A fresh token for one run; `onAttach` receives the run's connection once the child presents it. */
  offer(onAttach: (socket: Socket) => void): RunChannelOffer {
    const token = randomBytes(16).toString('hex');
    this.waiting.set(token, onAttach);
    return {
      channel: { path: posix.join(this.guestDir, SOCKET_NAME), token },
      withdraw: () => this.waiting.delete(token),
    };
  }

  async close(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.dir, { recursive: true, force: true });
  }

  private handshake(socket: Socket): void {
    this.connections.add(socket);
    socket.once('close', () => this.connections.delete(socket));
    socket.on('error', () => {
      // A connection the program broke is the program's loss; the run's end is reported by the server.
    });
    const timer = setTimeout(() => socket.destroy(), HANDSHAKE_TIMEOUT_MS);
    let line = '';
    const onData = (chunk: Buffer): void => {
      line += chunk.toString('latin1');
      const end = line.indexOf('\n');
      if (end < 0) {
        if (line.length > MAX_TOKEN_LINE) socket.destroy();
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      const attach = this.waiting.get(line.slice(0, end));
      // The child waits for the answer before it sends anything else: more bytes mean this is no child.
      if (attach === undefined || end !== line.length - 1) {
        socket.destroy();
        return;
      }
      this.waiting.delete(line.slice(0, end));
      socket.write(ATTACHED);
      attach(socket);
    };
    socket.on('data', onData);
    socket.once('close', () => clearTimeout(timer));
  }
}
