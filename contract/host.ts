import type { CodeRuntime, Language } from '../runtimes/seam/types.js';
import type { RegisteredTool } from './backend.js';
import type { Model } from './model.js';

/** What the gate hands a host for one scenario × runtime (and for each of its probes). */
export interface HostInput {
  /** The project root: the folder holding concord.config.yml. */
  root: string;
  /** The scenario being run: its name, its file, and its `composition` as written (absent when it has none). */
  scenario: { name: string; file: string; composition?: readonly unknown[] };
  /** The pair's runtime, by concord's name (`typescript`, `python`, `pyodide`, `python-container`), and its language. */
  runtime: { name: string; language: Language };
  /**
   * concord's keyless model: the app's agent must send every request through it. What it is sent is what the gate
   * records and checks; what it answers is the scenario's script (or a probe's fixed answers).
   */
  model: Model;
  /**
   * The pair's code runtime, started by concord. Mount it as the app's runtime; or run the programs on a runtime of
   * the app's own of the same language, and hand that back as `HostedApp.codeRuntime`.
   */
  codeRuntime: CodeRuntime;
  /** Aborted when the gate gives up on the boot (its start bound, Ctrl-C): stop, and release what was started. */
  signal: AbortSignal;
}

/** An app a host booted for the gate. */
export interface HostedApp {
  /** The runtime the app runs programs on: every program crosses its `run`, where the gate records it. */
  codeRuntime: CodeRuntime;
  /** Starts a conversation from the user's turn; resolves once the app has answered it (its agent is idle again). */
  converse(userText: string): Promise<void>;
  /** Registers a tool as the app's own tools are registered (the gate's probe tools); returns its removal. */
  registerTool(tool: RegisteredTool): () => void;
  /** The app's entries, as the snapshot's `cordis.yml` keeps them beside the transcript. */
  assembly: readonly unknown[];
  /** Stops the app and everything it started. */
  dispose(): Promise<void>;
}

/**
 * A way in for an app concord does not assemble: it boots the app its own way, on its own framework, and hands the
 * gate what it reads. A project names its host module in concord.config.yml (`host: ./concord-host.mjs`); the module's
 * default export is the host.
 */
export interface Host {
  /** The host as messages name it (`deepseek-harness`). */
  name: string;
  boot(input: HostInput): Promise<HostedApp>;
}
