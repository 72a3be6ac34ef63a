import './no-reaper.js';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { ContainerRuntimeClient } from 'testcontainers';
import { MissingPackageError } from './optional-package.js';
import { removeAbandonedContainers } from './owned-containers.js';
import { provisionCommand } from './provision-hint.js';
import { containerRuntimeModule } from './testcontainers.js';

/** How long the engine DOCKER_HOST names has to answer `/_ping`. */
const PING_TIMEOUT_MS = 3000;

let swept: Promise<unknown> | undefined;
/**
 * This module's first call for a client. testcontainers makes one client per concurrent first call and keeps the
 * last to finish for the containers it starts: a container started through another client than the one
 * `requireLocalImage` asked would ask again whether its image exists (a busy engine has been seen to say no, and
 * testcontainers then pulls). One call from here at a time, and the client returned is the one testcontainers
 * keeps, whoever else asked at once (a second copy of this module, as a test runner or a bundle may load).
 */
let engineClient: Promise<ContainerRuntimeClient> | undefined;

/**
 * The Docker engine client testcontainers uses, honouring `DOCKER_HOST` exactly: when it is set and the
 * engine it names does not answer, this throws instead of letting testcontainers fall back to
 * /var/run/docker.sock (a different engine than the one the user chose). Throws a MissingPackageError
 * when testcontainers is not installed. The first client a process gets has removed the containers that
 * concord processes killed before starting them left behind.
 */
export async function dockerEngine(): Promise<ContainerRuntimeClient> {
  const { getContainerRuntimeClient } = await containerRuntimeModule();
  const host = process.env.DOCKER_HOST;
  if (host !== undefined && host !== '') {
    const why = await pingFailure(host);
    if (why)
      throw new Error(
        `DOCKER_HOST=${host} does not answer (${why}); concord uses the engine DOCKER_HOST names and no other: start it, or unset DOCKER_HOST to use the local socket`,
      );
  }
  // A failed try is not kept: the engine may be started later in a long-lived process.
  engineClient ??= getContainerRuntimeClient().catch((error: unknown) => {
    engineClient = undefined;
    throw error;
  });
  await engineClient;
  const engine = await getContainerRuntimeClient();
  // A failed sweep is not this command's failure: the engine's own errors surface where the command uses it.
  swept ??= removeAbandonedContainers(engine.container.dockerode).catch(() => undefined);
  await swept;
  return engine;
}

/**
 * Why no container can be used, in one plain message naming the fix; undefined when Docker answers and the image
 * exists.
 */
export async function containerUnavailable(image: string): Promise<string | undefined> {
  let client: ContainerRuntimeClient;
  try {
    client = await dockerEngine();
  } catch (error) {
    if (error instanceof MissingPackageError) return `${error.message}.`;
    const message = (error as Error).message.split('\n')[0]!;
    const where = message.startsWith('DOCKER_HOST=')
      ? message
      : `testcontainers looked at DOCKER_HOST, ~/.testcontainers.properties and /var/run/docker.sock: ${message}`;
    return `no Docker engine answers (${where}). Install and start one with \`${provisionCommand()}\`.`;
  }
  try {
    await client.container.dockerode.getImage(image).inspect();
  } catch {
    return `the Docker engine answers but has no image ${image}. Build the runtime images with \`${provisionCommand()}\`.`;
  }
  return undefined;
}

/** Why `GET /_ping` on the engine `host` names failed, or undefined when it answered OK. */
async function pingFailure(host: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    return 'not a URL such as unix:///var/run/docker.sock or tcp://127.0.0.1:2375';
  }
  const options: RequestOptions = { path: '/_ping', method: 'GET', timeout: PING_TIMEOUT_MS };
  let tls = false;
  if (url.protocol === 'unix:') options.socketPath = url.pathname;
  else if (url.protocol === 'tcp:' || url.protocol === 'http:' || url.protocol === 'https:') {
    tls = url.protocol === 'https:' || process.env.DOCKER_TLS_VERIFY === '1';
    options.host = url.hostname;
    options.port = url.port || (tls ? 2376 : 2375);
    if (tls && process.env.DOCKER_CERT_PATH) {
      const dir = process.env.DOCKER_CERT_PATH;
      const [ca, cert, key] = await Promise.all(
        ['ca.pem', 'cert.pem', 'key.pem'].map((f) => readFile(join(dir, f)).catch(() => undefined)),
      );
      Object.assign(options, { ca, cert, key });
    }
  } else return `the scheme ${url.protocol} is not one concord can reach (unix:, tcp:)`;
  return new Promise((resolve) => {
    const req = (tls ? httpsRequest : httpRequest)(options, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? undefined : `GET /_ping answered ${String(res.statusCode)}`);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PING_TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve(error.message));
    req.end();
  });
}
