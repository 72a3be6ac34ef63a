import { environmentSecrets } from '../guarded/environment-secrets.js';
import { holdSecret } from '../guarded/secret.js';

/**
 * cordis's Node loader puts `process.env` back as it was when the loader module was imported each time an app
 * starts. In a backend's own process the loader starts once, before the plugins load, so what a plugin module
 * sets as it loads (`import 'dotenv/config'`) stays. The gate starts an app per pair but loads each module
 * once, like the module cache: the variables a module set as it loaded are kept here, as long as the module
 * itself, and set again whenever an app starts, so every pair sees what the backend's one app would.
 */
const setByPluginModules = new Map<string, string>();

/**
 * Runs `load` (a plugin module's import), keeping the variables it set or changed. A secret among them (a
 * token a `.env` file held) is scrubbed from then on, like those of the environment concord started with.
 */
export async function keepingPluginEnvironment<T>(load: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  try {
    return await load();
  } finally {
    const set: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined && before[name] !== value) set[name] = value;
    for (const [name, value] of Object.entries(set)) setByPluginModules.set(name, value);
    for (const { value } of environmentSecrets(set)) holdSecret(value);
  }
}

/** Sets again what plugin modules set as they loaded: called once the loader has reset the environment. */
export function restorePluginEnvironment(): void {
  for (const [name, value] of setByPluginModules) process.env[name] = value;
}
