import { sep } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * The command that builds the Docker engine and runtime images where the user is: `npx concord provision`
 * in a project that installed concord, `npm run provision` in concord's own checkout (the only place that
 * script exists).
 */
export function provisionCommand(root: string = packageRoot()): string {
  return root.split(sep).includes('node_modules') ? 'npx concord provision' : 'npm run provision';
}
