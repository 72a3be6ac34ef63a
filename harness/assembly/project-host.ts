import { realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Host } from '../../contract/host.js';
import { inside } from '../guarded/inside.js';
import { InputError } from '../scenario/error.js';
import { isFile } from '../scenario/plugins.js';
import type { ProjectHost } from '../session.js';
import { placeOf } from './plugin-import.js';
import { importPluginModule } from './typescript-plugins.js';

const SHAPE_HINT =
  "default-export the host: export default { name: 'my-backend', async boot(input) { …; return { codeRuntime, converse, registerTool, assembly, dispose } } } (the Host type of concord/contract)";

/**
 * The host `concord.config.yml` names, imported once before anything boots: a path from the project root that stays
 * inside it (after links), a module that imports, and a default export shaped as a Host. Anything else is bad input
 * naming the file, the line and the fix. Undefined when the project names none: concord assembles its apps itself.
 */
export async function loadProjectHost(project: {
  root: string;
  configFile?: string;
  config: { host?: string };
}): Promise<ProjectHost | undefined> {
  const ref = project.config.host;
  if (ref === undefined) return undefined;
  const configFile = project.configFile ?? resolve(project.root, 'concord.config.yml');
  const fail = (problem: string, hint: string) => new InputError(configFile, 1, 1, `host ${ref}: ${problem}`, hint);
  const root = realpathSync(project.root);
  const path = resolve(root, ref);
  if (!inside(path, root) || !isFile(path))
    throw fail(
      `${relative(root, path)} is no file inside the project root`,
      'name the host module by its path from the project root, such as ./concord-host.mjs',
    );
  const file = realpathSync(path);
  if (!inside(file, root))
    throw fail(`it leads out of the project root (to ${file})`, 'keep the host module inside the project');
  let module: unknown;
  try {
    module = await importPluginModule(file, pathToFileURL(file).href);
  } catch (error) {
    const place = placeOf(error, file);
    const problem = `cannot be imported: ${place?.problem ?? (error as Error).message.split('\n')[0]}`;
    throw place === undefined
      ? fail(problem, 'fix the host module and run again (--debug shows the stack)')
      : new InputError(file, place.line, place.column, `host ${ref} ${problem}`, 'fix the host module and run again');
  }
  const host = (module as { default?: unknown }).default;
  const shaped = typeof host === 'object' && host !== null && typeof (host as Host).boot === 'function';
  if (!shaped) throw fail('its default export is no host (an object with a boot function)', SHAPE_HINT);
  const name = typeof (host as Host).name === 'string' ? (host as Host).name : ref;
  return { host: { ...(host as Host), name, boot: (input) => (host as Host).boot(input) }, ref, file, root };
}
