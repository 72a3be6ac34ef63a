import { dockerEngine } from './docker-engine.js';
import { provisionCommand } from './provision-hint.js';
import { testcontainers } from './testcontainers.js';

/**
 * Tries before an image counts as missing: a busy engine has been seen to answer "no such image" for one that exists.
 */
const TRIES = 3;

/**
 * Makes sure `image` is on the local engine before a container of it starts. testcontainers pulls an image it
 * believes missing; concord's images are built locally and never come from a registry, so a missing one is
 * an error that says how to build it. A positive answer is remembered by the client, so the start that
 * follows does not ask again.
 */
export async function requireLocalImage(image: string): Promise<void> {
  const client = await dockerEngine();
  const { ImageName } = await testcontainers();
  const name = ImageName.fromString(image);
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    if (await client.image.exists(name)) return;
    if (attempt < TRIES) await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
  throw new Error(
    `the image ${image} is not on this Docker engine; build it with \`${provisionCommand()}\` (concord never pulls its images)`,
  );
}
