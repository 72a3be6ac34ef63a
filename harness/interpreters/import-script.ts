import { COMPILE_DEFINITIONS } from './compile-script.js';

/**
 * A line that imports, at the top level of a source (a regular expression read line by line, in JavaScript and in
 * Python alike): `import a.b`, `from a import b`; a docstring's line that begins "from the …" is none. A source
 * without one is declarations for a reader: it runs with typing's names bound.
 */
const IMPORT_LINE = String.raw`^(?:import[ \t]+[\w.]|from[ \t]+[\w.]+[ \t]+import[ \t])`;

/** Whether a source imports nothing at its top level, and so runs with the names of the interpreter's `typing`. */
export function importsNothing(source: string): boolean {
  return !new RegExp(IMPORT_LINE, 'm').test(source);
}

/**
 * Executes sources as modules (stdlib only, CPython 3.8+ and Pyodide): `import_sources(sources, seconds)`
 * gives one outcome per source, in the shape the compile batch reports. Each source is a fresh module
 * (`<sdk N>`, its own `__name__` in `sys.modules` while it runs), and every module a source imported is
 * dropped from `sys.modules` after it. A source with no import line at its top level is declarations written for a
 * reader, who takes `TypedDict`, `Any` or `Literal` as known: it runs with the names of the interpreter's `typing`
 * bound. A source that imports from the sandbox's `tools` package (a catalog of its modules) finds it: each module it
 * names, each name a stand-in. Where the interpreter can fork, the sources run in an executor: a
 * child of the caller that runs one module after another, killed when one takes longer than `seconds`. A
 * fork costs far more than a stub takes to run, so one is not spent per module; instead the executor
 * records, as it starts, the state a module could leave behind for the next (every loaded module's
 * namespace, those of its classes that can change and the sizes of the lists, dicts and sets in it; `sys.modules`,
 * `sys.path`,
 * the import hooks and the environment; the working directory, open descriptors, threads, signal handlers,
 * recursion limit and trace hooks), compares it after each module, and ends once one changed it: the next
 * module runs in a fresh fork. Where the interpreter cannot fork (Pyodide), modules run in the interpreter.
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

_IMPORT_LINE = re.compile(r"${IMPORT_LINE}", re.M)

def _reader_names():
    # The names of typing this interpreter has, as a block that imports nothing assumes them bound.
    import typing
    return {name: getattr(typing, name) for name in getattr(typing, "__all__", ()) if hasattr(typing, name)}

_TOOLS_IMPORT = re.compile(r"^(?:from|import)[ \t]+tools\b", re.M)

class _ToolsName(object):
    # A name of the sandbox's tools package while stubs that import it run: it stands in for the tool, and is never
    # called by a stub.
    def __init__(self, name):
        self.__name__ = name
    def __call__(self, *args, **kwargs):
        return None
    def __getattr__(self, name):
        return _ToolsName(self.__name__ + "." + name)

def _tools_package(source):
    # The sandbox's tools package, as stubs that import from it (from tools.notes import add_note) find it there:
    # each module they name, every name of it a stand-in. Nothing when the source imports none of it.
    if _TOOLS_IMPORT.search(source) is None:
        return {}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    named = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            named.add(node.module)
        elif isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
    modules = {}
    for name in sorted(named):
        parts = name.split(".")
        if parts[0] != "tools":
            continue
        for end in range(1, len(parts) + 1):
            full = ".".join(parts[:end])
            if full in modules:
                continue
            module = types.ModuleType(full)
            module.__path__ = []
            module.__getattr__ = lambda attribute, full=full: _ToolsName(full + "." + attribute)
            modules[full] = module
            if end > 1:
                setattr(modules[".".join(parts[:end - 1])], parts[end - 1], module)
    return modules

def _execute(source, index, code=None):
    # A code object compiled beforehand (from this very source) is executed as it is: compiled once.
    filename = "<sdk %d>" % index if code is None else code.co_filename
    name = "concord_sdk_%d" % index
    module = types.ModuleType(name)
    module.__file__ = filename
    # Declarations written for a reader, importing nothing (class Forecast(TypedDict): ...), run with typing's
    # names bound; a source that imports anything runs exactly as written.
    if _IMPORT_LINE.search(source) is None:
        module.__dict__.update(_reader_names())
    provided = {name: package for name, package in _tools_package(source).items() if name not in sys.modules}
    sys.modules.update(provided)
    sys.modules[name] = module
    try:
        exec(code if code is not None else compile(source, filename, "exec", dont_inherit=True), module.__dict__)
        return {"ok": True}
    except BaseException as error:
        return _outcome(source, filename, error)
    finally:
        sys.modules.pop(name, None)
        for provided_name in provided:
            sys.modules.pop(provided_name, None)

def _failed(name, message):
    """The outcome of a module that failed where no line of it can be named."""
    return {"ok": False, "name": name, "message": message, "line": None, "column": None}

def _drop_new_modules(before, _modules=sys.modules):
    for name in [name for name in _modules if name not in before]:
        del _modules[name]

# Caches that the checks themselves fill (a failure's column is found with a regular expression): their
# growth is not something a module left behind.
_CACHES = {("re", "_cache"), ("re", "_cache2"), ("sys", "path_importer_cache"), ("linecache", "cache")}

def _process_state():
    import signal
    proc = "/proc/self"
    return (
        os.getcwd(),
        sorted(os.listdir(proc + "/fd")) if os.path.isdir(proc + "/fd") else None,
        len(os.listdir(proc + "/task")) if os.path.isdir(proc + "/task") else None,
        [signal.getsignal(number) for number in sorted(signal.valid_signals())] if hasattr(signal, "valid_signals") else None,
        sys.getrecursionlimit(),
        sys.gettrace(),
        sys.getprofile(),
        list(sys.path),
        list(sys.meta_path),
        list(sys.path_hooks),
        dict(os.environ),
    )

def _watched():
    # Every namespace a module could leave something in for the next: each loaded module's and those of the
    # classes each holds that can change (built-in and extension types cannot), and the lists, dicts and sets
    # at a module's top level.
    spaces = []
    containers = []
    seen = set()
    for name, module in list(sys.modules.items()):
        space = getattr(module, "__dict__", None)
        if type(space) is not dict:
            continue
        spaces.append(space)
        containers.extend(value for key, value in space.items() if type(value) in (list, dict, set) and (name, key) not in _CACHES)
        for value in list(space.values()):
            if isinstance(value, type) and id(value) not in seen and value.__flags__ & _HEAP_TYPE and not value.__flags__ & _IMMUTABLE_TYPE:
                seen.add(id(value))
                spaces.append(value.__dict__)
    return spaces, containers

_HEAP_TYPE = 1 << 9
_IMMUTABLE_TYPE = 1 << 8

def _state():
    import itertools
    spaces, containers = _watched()
    keys = [space.keys() for space in spaces]
    values = [space.values() for space in spaces]
    # Live views, read in one pass each: the keys, the identity of every value and the containers' sizes. The
    # copies hold every value, so no later object can take an earlier one's id while they live.
    read = lambda chain=itertools.chain.from_iterable, list=list, map=map, id=id, len=len: (
        list(chain(keys)),
        list(map(id, chain(values))),
        list(map(len, containers)),
    )
    return dict(sys.modules), read, read(), [dict(space) for space in spaces], _process_state()

# The executor's own reading of the state is bound here, before any module runs: a module that replaced a
# builtin (or sys.modules' binding) cannot blind the check that finds it did.
def _left_behind(state, _modules=sys.modules, _list=list, _map=map, _id=id):
    """Whether a module changed the state the executor began with."""
    modules, read, seen, _held, process = state
    _drop_new_modules(modules)
    if _list(_modules) != _list(modules) or _list(_map(_id, _modules.values())) != _list(_map(_id, modules.values())):
        return True
    if read() != seen:
        return True
    # Past this point every namespace is as it was: what the process state is read with is untouched.
    return _process_state() != process

_UNREADABLE = '{"ok": false, "name": "Crash", "message": "the module left the interpreter unable to report its outcome", "line": null, "column": null}'

def _serve(requests, results, _dumps=json.dumps, _write=os.write, _exit=os._exit):
    # The executor: a fork of the checker that runs module after module, each in the state it began with.
    # After each it compares that state with what it found at its start; a module that changed it ends the
    # executor once its outcome is sent (a first byte of 1), and the next module runs in a fresh fork.
    import gc, marshal, struct
    state = _state()
    # What the executor began with is never garbage: collections then walk only what the modules made.
    gc.freeze()
    reader = os.fdopen(requests, "rb")
    while True:
        head = reader.read(4)
        if len(head) < 4:
            _exit(0)
        index, source, code = marshal.loads(reader.read(struct.unpack(">I", head)[0]))
        try:
            outcome = _execute(source, index, code)
        except BaseException as error:
            outcome = _failed(type(error).__name__, str(error))
        changed = _left_behind(state)
        try:
            body = _dumps(outcome)
        except BaseException:
            body, changed = _UNREADABLE, True
        data = (("1" if changed else "0") + body + "\n").encode("ascii")
        while data:
            data = data[_write(results, data):]
        if changed:
            _exit(0)

class _Executor:
    """The checker's side of one executor: sends a module, reads its outcome within the time limit."""

    def __init__(self):
        requests, self.requests = os.pipe()
        self.results, results = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self.requests)
            os.close(self.results)
            quiet = os.open(os.devnull, os.O_RDWR)
            os.dup2(quiet, 0)
            os.dup2(quiet, 1)
            try:
                _serve(requests, results)
            finally:
                os._exit(0)
        os.close(requests)
        os.close(results)
        self.pending = b""

    def run(self, source, index, seconds, code):
        """The module's outcome (None when it never reached the executor) and whether the executor goes on."""
        import marshal, select, signal, struct
        payload = marshal.dumps((index, source, code))
        data = struct.pack(">I", len(payload)) + payload
        try:
            while data:
                data = data[os.write(self.requests, data):]
        except OSError:
            # It ended while idle, before this module reached it.
            self.stop()
            return None, False
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.results], [], [], seconds)
            if not ready:
                os.kill(self.pid, signal.SIGKILL)
                self.stop()
                return _failed("Timeout", "the module did not finish within %s s" % seconds), False
            chunk = os.read(self.results, 65536)
            if not chunk:
                return _crashed(self.stop()), False
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        outcome = json.loads(line[1:].decode("ascii"))
        if line[:1] == b"1":
            self.stop()
            return outcome, False
        return outcome, True

    def stop(self):
        """Closes the pipes (an executor waiting for a module then ends) and reaps it: its wait status."""
        os.close(self.requests)
        os.close(self.results)
        return os.waitpid(self.pid, 0)[1]

def _crashed(status):
    return _failed("Crash", "the interpreter ended while executing the module (wait status %d)" % status)

_executor = None

def _in_executor(source, index, seconds, code):
    # An executor that ended while idle gets the module into a new one, once.
    global _executor
    for _attempt in range(2):
        if _executor is None:
            _executor = _Executor()
        outcome, reusable = _executor.run(source, index, seconds, code)
        if not reusable:
            _executor = None
        if outcome is not None:
            return outcome
    return _failed("Crash", "two executors in a row ended before the module reached them")

def import_sources(sources, seconds, codes=None):
    results = []
    for index, source in enumerate(sources):
        if hasattr(os, "fork") and sys.platform != "emscripten":
            results.append(_in_executor(source, index, seconds, None if codes is None else codes[index]))
            continue
        before = set(sys.modules)
        results.append(_execute(source, index, None if codes is None else codes[index]))
        _drop_new_modules(before)
    return results
`;

/** Seconds one source may run as a module before it counts as hanging. */
export const IMPORT_SECONDS = 10;

/**
 * `verify_sources(sources, report, seconds)`: compiles each source (compile-script.ts) into `report["results"]`
 * and executes each that compiled as a module (for at most `seconds`, IMPORT_SECONDS unless given), running
 * the code object its compile made (each source is compiled once), into `report["imports"]` (null where it did not
 * compile); should executing fail as a whole, the
 * compile verdicts stay, with `import_error` instead of `imports`.
 */
const VERIFY_DEFINITIONS = `${COMPILE_DEFINITIONS}${DEFINITIONS}
def verify_sources(sources, report, seconds=${IMPORT_SECONDS}):
    codes = []
    report["results"] = compile_sources(sources, codes)
    compiled = [index for index, code in enumerate(codes) if code is not None]
    try:
        imports = [None] * len(sources)
        for index, outcome in zip(compiled, import_sources([sources[index] for index in compiled], seconds, [codes[index] for index in compiled])):
            imports[index] = outcome
        report["imports"] = imports
    except BaseException as error:
        report["import_error"] = "%s: %s" % (type(error).__name__, error)
`;

/**
 * The checker of a local or container CPython: one process that serves batches for the whole run, one JSON
 * request a line on stdin (`{"sources": [...], "verify": bool}`, with `"seconds"` for each module's limit
 * when it is not IMPORT_SECONDS), one JSON report a line on stdout. A batch compiles each source
 * (compile-script.ts) and, when `verify` is set, executes each that compiled as a module as above, in the
 * executor, running the code object its compile made. The report is the compile batch's
 * (`python`, `unicode`, `results`) with, for `verify`, `imports`: one outcome per source, null where it did
 * not compile (and so was not executed); should executing fail as a whole (no fork left), the compile
 * verdicts still come back, with `import_error` instead of `imports`. Nothing of a source ever runs in this
 * process (its modules run only in executors forked from it), so every module starts from the state the
 * checker had, whatever batches came before. The checker ends when its stdin closes, and its executor then.
 */
export const CHECKER_SCRIPT = `${VERIFY_DEFINITIONS}

# Every stub imports typing: loaded once here, each fork finds it loaded rather than importing it again.
# What typing loads on first use (annotationlib on 3.14) is loaded here too, by a class like the stubs': the
# first stub an executor runs would otherwise change typing, and end it.
import typing
exec(compile("""
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union
class _Warm(TypedDict, total=False):
    a: Optional[Union[int, str]]
    b: List[Dict[str, Any]]
    c: Literal["x"]
""", "<warm-up>", "exec"), {})
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
        verify_sources(_request["sources"], _report, _request.get("seconds", ${IMPORT_SECONDS}))
    else:
        _report["results"] = compile_sources(_request["sources"])
    _reports.write(json.dumps(_report).encode("ascii") + b"\\n")
    _reports.flush()
`;

/**
 * A program for a Python runtime (the body of an async function) that verifies `sources` as the checker
 * does (compiled once, then executed where they compiled) and returns the checker's report as its value.
 */
export function verifyProgram(sources: readonly string[]): string {
  return [
    '_namespace = {"__name__": "concord_import"}',
    `exec(${JSON.stringify(VERIFY_DEFINITIONS)}, _namespace)`,
    '_report = _namespace["about"]()',
    `_namespace["verify_sources"](_namespace["json"].loads(${JSON.stringify(JSON.stringify(sources))}), _report)`,
    'return _report',
    '',
  ].join('\n');
}
