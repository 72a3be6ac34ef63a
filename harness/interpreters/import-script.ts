import { COMPILE_DEFINITIONS } from './compile-script.js';

/**
 * Executes sources as modules (stdlib only, CPython 3.8+ and Pyodide): `import_sources(sources, seconds)`
 * gives one outcome per source, in the shape the compile batch reports. Each source is a fresh module
 * (`<sdk N>`, its own `__name__` in `sys.modules` while it runs); where the interpreter can fork, each runs
 * in a child of its own, killed after `seconds`, so nothing one leaves behind reaches the next. Where it
 * cannot (Pyodide), every module a source imported is dropped from `sys.modules` after it.
 *
 * A failure's line is the last frame of the traceback inside the source; its column is the instruction's own
 * (3.11+ positions), else the name an ImportError could not import, else the first `|` of a failing union,
 * else the statement's first character. A source that does not compile reports its SyntaxError.
 */
const DEFINITIONS = String.raw`
import ast, json, os, re, sys, types

def _chars(text, offset):
    # AST and code positions count UTF-8 bytes; a finding counts characters.
    return len(text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "ignore"))

def _column(source, line, error, code=None, lasti=None):
    text = source.split("\n")[line - 1] if 0 < line <= source.count("\n") + 1 else ""
    missing = re.match(r"cannot import name '([^']+)'", str(error))
    if isinstance(error, ImportError) and missing and re.search(r"\b%s\b" % re.escape(missing.group(1)), text):
        return re.search(r"\b%s\b" % re.escape(missing.group(1)), text).start() + 1
    if code is not None and lasti is not None and hasattr(code, "co_positions"):
        positions = list(code.co_positions())
        index = lasti // 2
        if 0 <= index < len(positions):
            start, _end, column, _end_column = positions[index]
            if start == line and column is not None:
                return _chars(text, column) + 1
    if isinstance(error, TypeError) and "|" in str(error):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            tree = None
        for node in ast.walk(tree) if tree is not None else []:
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and node.lineno == line:
                return text.find("|", _chars(text, node.left.end_col_offset)) + 1
    return len(text) - len(text.lstrip()) + 1

def _outcome(source, filename, error):
    if isinstance(error, SyntaxError):
        return {"ok": False, "name": type(error).__name__, "message": str(error.msg), "line": error.lineno, "column": error.offset}
    hit = None
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == filename:
            hit = trace
        trace = trace.tb_next
    line = column = None
    if hit is not None:
        line = hit.tb_lineno
        column = _column(source, line, error, hit.tb_frame.f_code, hit.tb_lasti)
    return {"ok": False, "name": type(error).__name__, "message": str(error), "line": line, "column": column}

def _execute(source, index, code=None):
    # A code object compiled beforehand (from this very source) is executed as it is: compiled once.
    filename = "<sdk %d>" % index if code is None else code.co_filename
    name = "concord_sdk_%d" % index
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    try:
        exec(code if code is not None else compile(source, filename, "exec", dont_inherit=True), module.__dict__)
        return {"ok": True}
    except BaseException as error:
        return _outcome(source, filename, error)
    finally:
        sys.modules.pop(name, None)

def _in_child(source, index, seconds, code=None):
    import select, signal
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        quiet = os.open(os.devnull, os.O_RDWR)
        os.dup2(quiet, 0)
        os.dup2(quiet, 1)
        try:
            text = json.dumps(_execute(source, index, code))
        except BaseException as error:
            text = json.dumps({"ok": False, "name": type(error).__name__, "message": str(error), "line": None, "column": None})
        data = text.encode("utf-8", "surrogatepass")
        while data:
            data = data[os.write(write, data):]
        os._exit(0)
    os.close(write)
    chunks = []
    timed_out = False
    while True:
        ready, _, _ = select.select([read], [], [], seconds)
        if not ready:
            timed_out = True
            break
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"ok": False, "name": "Timeout", "message": "the module did not finish within %s s" % seconds, "line": None, "column": None}
    try:
        return json.loads(b"".join(chunks).decode("utf-8", "surrogatepass"))
    except ValueError:
        return {"ok": False, "name": "Crash", "message": "the interpreter ended while executing the module (wait status %d)" % status, "line": None, "column": None}

def import_sources(sources, seconds, codes=None):
    results = []
    for index, source in enumerate(sources):
        if hasattr(os, "fork") and sys.platform != "emscripten":
            results.append(_in_child(source, index, seconds, None if codes is None else codes[index]))
            continue
        before = set(sys.modules)
        results.append(_execute(source, index))
        for name in set(sys.modules) - before:
            del sys.modules[name]
    return results
`;

/** Seconds one source may run as a module before it counts as hanging. */
export const IMPORT_SECONDS = 10;

/**
 * The checker of a local or container CPython: one process that serves batches for the whole run, one JSON
 * request a line on stdin (`{"sources": [...], "verify": bool}`), one JSON report a line on stdout. A batch
 * compiles each source (compile-script.ts) and, when `verify` is set, executes each that compiled as a module
 * as above, in a fork of its own running the code object its compile made. The report is the compile batch's
 * (`python`, `unicode`, `results`) with, for `verify`, `imports`: one outcome per source, null where it did
 * not compile (and so was not executed); should executing fail as a whole (no fork left), the compile
 * verdicts still come back, with `import_error` instead of `imports`. Nothing of a source ever runs in this
 * process (its modules run only in the forks), so every module starts from the same state, whatever batches
 * came before. The checker ends when its stdin closes.
 */
export const CHECKER_SCRIPT = `${COMPILE_DEFINITIONS}${DEFINITIONS}
def _verify(sources, report):
    codes = []
    report["results"] = compile_sources(sources, codes)
    compiled = [index for index, code in enumerate(codes) if code is not None]
    try:
        imports = [None] * len(sources)
        for index, outcome in zip(compiled, import_sources([sources[index] for index in compiled], ${IMPORT_SECONDS}, [codes[index] for index in compiled])):
            imports[index] = outcome
        report["imports"] = imports
    except BaseException as error:
        report["import_error"] = "%s: %s" % (type(error).__name__, error)

# Every stub imports typing: loaded once here, each fork finds it loaded rather than importing it again.
import typing
_requests = sys.stdin.buffer
_reports = sys.stdout.buffer
while True:
    _line = _requests.readline()
    if not _line:
        break
    # Requests are UTF-8 JSON whatever the locale.
    _request = json.loads(_line.decode("utf-8"))
    _report = about()
    if _request.get("verify"):
        _verify(_request["sources"], _report)
    else:
        _report["results"] = compile_sources(_request["sources"])
    _reports.write(json.dumps(_report).encode("ascii") + b"\\n")
    _reports.flush()
`;

/** A program for a Python runtime (the body of an async function) whose value is the outcomes of `sources`. */
export function importProgram(sources: readonly string[]): string {
  return [
    '_namespace = {"__name__": "concord_import"}',
    `exec(${JSON.stringify(DEFINITIONS)}, _namespace)`,
    `return _namespace["import_sources"](_namespace["json"].loads(${JSON.stringify(JSON.stringify(sources))}), ${IMPORT_SECONDS})`,
    '',
  ].join('\n');
}
