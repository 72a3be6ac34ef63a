"""The Pyodide side of concord's wasm runtime.

One interpreter serves many runs, because booting Pyodide costs seconds. Each run goes through the shared
guest module (``concord_guest.run_program``: fresh globals holding exactly the namespaces and their error
classes), and afterwards this module puts the interpreter back the way it was before the first program:
``sys.modules``, every module's namespace (builtins included), the attributes of every class that existed
then, ``os.environ``, the working directory and a few interpreter settings.

What cannot be put back marks the interpreter as *tainted*; the host then replaces the whole worker process
before the next run. That covers files written to the in-memory filesystem, audit hooks (they cannot be
removed) and tasks or callbacks the program left on the event loop.

Restoring is hygiene between honest runs, not a defence: a program can reach JavaScript and this module.
What holds a hostile program is the worker process around the interpreter (runtimes/pyodide/sandbox.ts).

The host talks to this module through two JavaScript functions handed to ``install``:
``call_host(namespace, member, args_json) -> Promise<reply_json>`` and ``write_log(line) -> bool`` (False
once the output limit is reached). Values cross as JSON text only.

Output is counted here first, with the host's rule (a printed line costs its UTF-8 bytes plus one for
its newline, the returned value its JSON text), so a flood stops inside the interpreter: a line or a
value past what is left of the cap never becomes a JavaScript string. The host counts again; this count
only keeps the worker's JavaScript heap out of reach of a program's output.
"""

import asyncio
import gc
import json
import os
import sys
import unicodedata

import concord_guest

# Audit events that change the filesystem: their effects would outlive the run.
_FILESYSTEM_EVENTS = frozenset(
    (
        "os.chmod",
        "os.chown",
        "os.link",
        "os.mkdir",
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.symlink",
        "os.truncate",
        "os.utime",
        "shutil.copyfile",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.copytree",
        "shutil.move",
        "shutil.rmtree",
    )
)
# Made before any program runs, so a program that patches the json module cannot break the encoding of
# another run's result (its own result is its own business: the host validates it either way).
_RESULT_ENCODER = json.JSONEncoder(allow_nan=False)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class _Session:
    def __init__(self):
        self.armed = False
        self.taint = None
        self.output_exceeded = False
        self.output_left = 0
        self.call_js = None
        self.log_js = None
        self.baseline = None


_session = _Session()


def _audit(event, args):
    # Runs for every audited event in the interpreter: keep the common path to one attribute read.
    if not _session.armed or _session.taint is not None:
        return
    if event == "sys.addaudithook":
        _session.taint = "the program installed an audit hook"
    elif event in _FILESYSTEM_EVENTS:
        _session.taint = "the program changed the filesystem (%s)" % event
    elif event == "open" and len(args) == 3:
        mode, flags = args[1], args[2]
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        )
        if writes:
            _session.taint = "the program opened a file for writing"


class _Baseline:
    """The interpreter as it was before the first program, and the means to go back to it."""

    def __init__(self):
        self.modules = dict(sys.modules)
        self.module_namespaces = [
            (vars(module), dict(vars(module)))
            for module in self.modules.values()
            if isinstance(getattr(module, "__dict__", None), dict)
        ]
        # Classes whose attributes a program could patch (static and immutable types refuse it anyway).
        self.class_namespaces = [
            (cls, dict(vars(cls))) for cls in gc.get_objects() if isinstance(cls, type) and _is_patchable(cls)
        ]
        self.environ = dict(os.environ)
        self.cwd = os.getcwd()
        self.recursion_limit = sys.getrecursionlimit()
        self.max_str_digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
        self.gc_callbacks = list(gc.callbacks)
        self.gc_threshold = gc.get_threshold()

    def restore(self):
        sys.settrace(None)
        sys.setprofile(None)
        modules = sys.modules
        for name in [name for name in modules if name not in self.modules]:
            del modules[name]
        modules.update(self.modules)
        # Only locals and methods inside this loop: builtins are briefly empty while their dict is refilled.
        for namespace, saved in self.module_namespaces:
            namespace.clear()
            namespace.update(saved)
        for cls, saved in self.class_namespaces:
            # A class namespace compares as a dict: identical values short-circuit in C.
            if cls.__dict__ != saved:
                _restore_class(cls, saved)
        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        if os.getcwd() != self.cwd:
            os.chdir(self.cwd)
        sys.setrecursionlimit(self.recursion_limit)
        if self.max_str_digits is not None:
            sys.set_int_max_str_digits(self.max_str_digits)
        gc.callbacks[:] = self.gc_callbacks
        gc.set_threshold(*self.gc_threshold)
        gc.enable()


_HEAP_TYPE = 1 << 9
_IMMUTABLE_TYPE = 1 << 8


def _is_patchable(cls):
    # Static types and immutable heap types refuse attribute assignment (Pyodide is CPython 3.11+).
    return bool(cls.__flags__ & _HEAP_TYPE) and not cls.__flags__ & _IMMUTABLE_TYPE


def _restore_class(cls, saved):
    current = cls.__dict__
    for key in [key for key in current if key not in saved]:
        type.__delattr__(cls, key)
    for key, value in saved.items():
        if current.get(key, _restore_class) is not value:
            type.__setattr__(cls, key, value)


def _spend(cost):
    """Counts ``cost`` bytes of output; False (and the run marked over its cap) once they do not fit."""
    if _session.output_exceeded or cost > _session.output_left:
        _session.output_exceeded = True
        _session.output_left = 0
        return False
    _session.output_left -= cost
    return True


def _utf8_length(text):
    # Lone surrogates cost three bytes each, as on the host (they become U+FFFD there).
    return len(text.encode("utf-8", "surrogatepass"))


def _write_log(line):
    # A line has at least one byte per character: a flood is refused before it is even encoded.
    fits = len(line) + 1 <= _session.output_left and _spend(_utf8_length(line) + 1)
    # Raising stops a program that prints in a loop at once; the host reports the run as output-limit.
    if fits and _session.log_js(line):
        return
    _session.output_exceeded = True
    raise OverflowError("the output limit is reached: nothing more can be printed")


def _value_over_cap(value):
    """Whether a returned value is beyond doubt over what is left of the cap. Python spells some floats a
    few characters longer than JavaScript (``1e-07``), so only a value past twice the rest is refused
    here; the host decides the exact edge."""
    most = 2 * _session.output_left + 4096
    if isinstance(value, str) and len(value) > most:
        return True
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except MemoryError:  # a value whose JSON does not even fit in memory is over any cap
        return True
    except BaseException:  # not JSON: the guest has already said so in the result
        return False
    # A character is at least one byte: a text longer than the bound is over it without encoding it.
    return len(text) > most or _utf8_length(text) > most


async def _call_host(namespace, member, args):
    reply = await _session.call_js(namespace, member, json.dumps(args, allow_nan=False))
    return json.loads(reply)


def _leftover_tasks():
    current = asyncio.current_task()
    tasks = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in tasks:
        task.cancel()
    return len(tasks)


def install(call_js, log_js):
    """Connects the bridge and starts auditing; returns the interpreter's versions as JSON text."""
    _session.call_js = call_js
    _session.log_js = log_js
    sys.addaudithook(_audit)
    return json.dumps(
        {
            "python": "%d.%d.%d" % sys.version_info[:3],
            "unicode": unicodedata.unidata_version,
        }
    )


async def warm_up():
    """Loads what a run needs (lazy imports of the guest and the stdlib) before the baseline is taken."""
    await concord_guest.run_program("print(1)\nreturn [1]", [], _call_host, lambda line: None)
    _session.baseline = _Baseline()


async def run(source, namespaces_json, output_limit_bytes):
    """One program; returns the guest's result as JSON text, plus whether output overflowed or the
    interpreter is tainted."""
    _session.output_exceeded = False
    _session.output_left = output_limit_bytes
    _session.taint = None
    _session.armed = True
    text = problem = None
    try:
        try:
            result = await concord_guest.run_program(source, json.loads(namespaces_json), _call_host, _write_log)
        except BaseException as error:  # e.g. the output limit, hit while the guest flushes the last line
            result = {"error": {"kind": "exception", "message": str(error), "name": type(error).__name__}}
        if "value" in result and (_session.output_exceeded or _value_over_cap(result["value"])):
            _session.output_exceeded = True
            result = {"value": None}
        leftovers = _leftover_tasks()
        _session.armed = False
        if leftovers and _session.taint is None:
            _session.taint = "the program left %d task(s) running" % leftovers
        try:
            text = _RESULT_ENCODER.encode(result)
        except BaseException as error:  # a value's own methods may raise anything
            problem = error
    finally:
        _session.armed = False
        _session.baseline.restore()
    if text is None:
        error = {"kind": "invalid-output", "message": "the result could not be encoded: %s" % problem, "name": type(problem).__name__}
        text = json.dumps({"error": error})
    return json.dumps({"result": text, "outputExceeded": _session.output_exceeded, "taint": _session.taint})


def compile_sources(sources_json):
    """Compiles each source as a module; reports the interpreter and each SyntaxError's position."""
    results = []
    for index, source in enumerate(json.loads(sources_json)):
        try:
            compile(source, "<source %d>" % index, "exec", dont_inherit=True)
            results.append({"ok": True})
        except SyntaxError as error:
            results.append(
                {
                    "ok": False,
                    "name": type(error).__name__,
                    "message": error.msg,
                    "line": error.lineno,
                    "column": error.offset,
                }
            )
        except (ValueError, RecursionError, MemoryError) as error:
            results.append({"ok": False, "name": type(error).__name__, "message": str(error), "line": None, "column": None})
    return json.dumps(results)
