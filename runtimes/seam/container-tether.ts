import type Dockerode from 'dockerode';
import type { GenericContainer } from 'testcontainers';

/**
 * Python for a container's PID 1: a thread that ends the process once stdin closes. The host keeps the
 * container's stdin attached; when the host dies in any way (SIGKILL included) the engine closes it, and
 * the container ends (and, started with auto-remove, goes) by itself within moments.
 */
export const EXIT_WHEN_HOST_GONE = [
  'import os as _os, threading as _threading',
  'def _host_gone():',
  '    try:',
  '        while _os.read(0, 4096):',
  '            pass',
  '    except OSError:',
  '        pass',
  '    _os._exit(0)',
  '_threading.Thread(target=_host_gone, daemon=True).start()',
].join('\n');

/** Attachments kept for the life of the host; nothing is ever written to them. */
const tethers = new Set<NodeJS.ReadWriteStream>();

/**
 * Opens the container's stdin for exactly one attached client (when that client goes, stdin closes), attaches
 * this process as that client once the container is created and before it starts, and lets the engine remove
 * the container once it ends. Attached before the start, a host killed at any moment of a running container's
 * life leaves no container that waits for an idle end: it never runs untethered.
 */
export function withHostStdin<C extends GenericContainer>(container: C, docker: Dockerode): C {
  const { createOpts, hostConfig } = container as unknown as {
    createOpts: { OpenStdin?: boolean; StdinOnce?: boolean };
    hostConfig: { AutoRemove?: boolean };
  };
  createOpts.OpenStdin = true;
  createOpts.StdinOnce = true;
  hostConfig.AutoRemove = true;
  (container as unknown as { containerCreated: (id: string) => Promise<void> }).containerCreated = (id) =>
    tetherToHost(docker, id);
  return container;
}

/** Attaches this process to the container's stdin; the attachment never keeps the host alive by itself. */
async function tetherToHost(docker: Dockerode, id: string): Promise<void> {
  const stream = (await docker
    .getContainer(id)
    .attach({ stream: true, stdin: true, stdout: false, stderr: false, hijack: true })) as NodeJS.ReadWriteStream & {
    unref?: () => void;
  };
  stream.on('error', () => undefined);
  stream.unref?.();
  tethers.add(stream);
  stream.once('close', () => tethers.delete(stream));
}
