import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible model on 127.0.0.1. It writes its program in the language of the SDK it
 * is shown (the fence of the `tools:sdk` section and the `run_code` description), lists the cities with the
 * weather fixture's tools, then answers in words quoting the tool result. The first path segment picks a
 * behaviour, so one server serves every case of a test file:
 *
 * - `/ok/v1` answers as above; `/other/v1` writes another program (drift);
 * - `/status-N/v1` answers HTTP N, its body echoing the Authorization header it got;
 * - `/flaky/v1` answers 429 to every other request first (a retry succeeds);
 * - `/hang/v1` never answers; `/junk/v1` answers with text that is not JSON;
 * - `/unknown-tool/v1` calls a tool the request does not offer; `/loop/v1` never gives a final answer;
 * - `/huge/v1` answers with 5 MB; `/fail-python/v1` answers a TypeScript SDK as `/ok` and a Python one with 400.
 */
export class StandInModel {
  readonly seen: Array<{ path: string; authorization?: string; body: any }> = [];
  private server?: Server;
  private port = 0;
  private flakyCount = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops answering; hanging requests are cut. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  url(behaviour: string): string {
    return `http://127.0.0.1:${this.port}/${behaviour}/v1`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const behaviour = (req.url ?? '').split('/')[1] ?? '';
    const body = JSON.parse(raw);
    this.seen.push({ path: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), body });
    const status = /^status-(\d+)$/.exec(behaviour);
    if (status) {
      res.statusCode = Number(status[1]);
      res.end(`refused; you sent authorization: ${req.headers.authorization ?? '(none)'}`);
      return;
    }
    if (behaviour === 'flaky' && this.flakyCount++ % 2 === 0) {
      res.statusCode = 429;
      res.setHeader('retry-after', '0');
      res.end('slow down');
      return;
    }
    if (behaviour === 'hang') return;
    if (behaviour === 'huge') {
      res.end('x'.repeat(5_000_000));
      return;
    }
    if (behaviour === 'fail-python' && shownPython(body)) {
      res.statusCode = 400;
      res.end('no Python today');
      return;
    }
    if (behaviour === 'junk') {
      res.end('<html>gateway error</html>');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ message: this.answer(behaviour, body) }] }));
  }

  private answer(behaviour: string, body: any): unknown {
    const messages: any[] = body.messages;
    const python = shownPython(body);
    const results = messages.filter((m) => m.role === 'tool');
    if (behaviour === 'unknown-tool') return call('delete_everything', { really: true });
    if (behaviour !== 'loop' && results.length > 0) return { role: 'assistant', content: `The cities are: ${results.at(-1).content.split('\n')[0]}` };
    const other = behaviour === 'other';
    const code = python
      ? other
        ? 'cities = (await tools.list_cities({}))["cities"]\nreturn len(cities)\n'
        : 'cities = (await tools.list_cities({}))["cities"]\nreturn [c["name"] for c in cities]\n'
      : other
        ? 'const { cities } = await tools.list_cities({});\nreturn cities.length;\n'
        : 'const { cities } = await tools.list_cities({});\nreturn cities.map((c) => c.name);\n';
    return call('run_code', { code, description: 'List the cities with a forecast' });
  }
}

/** The language of the SDK in the request: the `tools:sdk` fence and the `run_code` description must both say Python. */
function shownPython(body: any): boolean {
  const system: string = body.messages[0]?.content ?? '';
  const runCode = (body.tools as any[]).find((t) => t.function.name === 'run_code');
  return system.includes('```python') && /python/i.test(runCode?.function.description ?? '');
}

function call(name: string, args: unknown): unknown {
  return { role: 'assistant', content: null, tool_calls: [{ id: `call_${Math.random().toString(36).slice(2, 8)}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}
