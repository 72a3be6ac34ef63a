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
 * - `/huge/v1` answers with 5 MB; `/fail-python/v1` answers a TypeScript SDK as `/ok` and a Python one with 400;
 * - `/echo-key/v1` echoes the bearer token it got (as sent, upper case, base64, URL-encoded) in its words, in
 *   a program that also looks for it in its environment and every `/proc/<pid>/environ`, in the program's
 *   description and in the final answer, which quotes the program's result;
 * - `/key-tool/v1` calls a tool named after the token; `/key-status/v1` answers 401 naming the token upper-cased
 *   and in base64; `/echo-url/v1` answers in words with the path and query it was asked on.
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
    // Counted as it arrives, before its body is read: a request whose client gave up meanwhile still counts.
    const seen: StandInModel['seen'][number] = {
      path: req.url ?? '',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      body: undefined,
    };
    this.seen.push(seen);
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const behaviour = (req.url ?? '').split('/')[1] ?? '';
    const body = JSON.parse(raw);
    seen.body = body;
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
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (behaviour === 'key-status') {
      res.statusCode = 401;
      res.end(`no access for ${token.toUpperCase()} (${Buffer.from(token).toString('base64')})`);
      return;
    }
    res.setHeader('content-type', 'application/json');
    const message =
      behaviour === 'echo-key'
        ? echoKey(token, body)
        : behaviour === 'key-tool'
          ? call(token, {})
          : behaviour === 'echo-url'
            ? { role: 'assistant', content: `You asked on ${req.url ?? ''}` }
            : this.answer(behaviour, body);
    res.end(JSON.stringify({ choices: [{ message }] }));
  }

  private answer(behaviour: string, body: any): unknown {
    const messages: any[] = body.messages;
    const python = shownPython(body);
    const results = messages.filter((m) => m.role === 'tool');
    if (behaviour === 'unknown-tool') return call('delete_everything', { really: true });
    if (behaviour !== 'loop' && results.length > 0)
      return { role: 'assistant', content: `The cities are: ${results.at(-1).content.split('\n')[0]}` };
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

/**
 * The language of the SDK in the request: the `tools:sdk` fence and the `run_code` description must both say Python.
 */
function shownPython(body: any): boolean {
  const system: string = body.messages[0]?.content ?? '';
  const runCode = (body.tools as any[]).find((t) => t.function.name === 'run_code');
  return system.includes('```python') && /python/i.test(runCode?.function.description ?? '');
}

/** The token in every common form. */
function forms(token: string): string {
  return `${token} ${token.toUpperCase()} ${token.toLowerCase()} ${Buffer.from(`Bearer ${token}`).toString('base64')} ${encodeURIComponent(token)}`;
}

function echoKey(token: string, body: any): unknown {
  const results = (body.messages as any[]).filter((m) => m.role === 'tool');
  if (results.length > 0)
    return { role: 'assistant', content: `Your key: ${forms(token)}. The program found: ${results.at(-1).content}` };
  const key = JSON.stringify(token);
  const code = shownPython(body)
    ? [
        'import os',
        `key = ${key}`,
        'found = []',
        'for name in os.listdir("/proc"):',
        '    if name.isdigit():',
        '        try:',
        '            with open("/proc/" + name + "/environ", "rb") as f:',
        '                if key.encode() in f.read():',
        '                    found.append(name)',
        '        except OSError:',
        '            pass',
        'return {"echo": key, "environ": key in repr(dict(os.environ)), "proc": len(found)}',
        '',
      ].join('\n')
    : `const key = ${key};\nconst host = globalThis as unknown as { process?: { env: object } };\nreturn { echo: key, environ: JSON.stringify(host.process?.env ?? {}).includes(key), proc: 0 };\n`;
  const answer = call('run_code', { code, description: `Look for ${token}` }) as { content: unknown };
  answer.content = `I will use ${forms(token)}`;
  return answer;
}

function call(name: string, args: unknown): unknown {
  return {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: `call_${Math.random().toString(36).slice(2, 8)}`,
        type: 'function',
        function: { name, arguments: JSON.stringify(args) },
      },
    ],
  };
}
