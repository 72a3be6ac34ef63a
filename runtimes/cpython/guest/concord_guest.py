"""Runs one concord program inside CPython (3.9+, standard library only).

This module has two layers.

1. ``run_program`` - transport-agnostic, reused unchanged by the Pyodide runtime::

       result = await run_program(source, namespaces, call_host, write_log)

   ``source``      the program: the body of an async function, so top-level ``await`` and ``return`` work.
                   Tracebacks name the file ``<program>`` with the program's own line numbers.
   ``namespaces``  a list of ``{"name": "tools", "members": ["search", "exotic-name"],
                   "errorClass": {"name": "ToolCallError", "memberProperty": "toolName"}}``
                   (``errorClass`` may be absent or None).
   ``call_host``   ``async (namespace, member, args) -> {"ok": value} | {"error": message, "code"?, "data"?}``.
   ``write_log``   ``(line: str) -> None``; receives every line the program prints (stdout and stderr).

   The program's globals are a fresh dict holding exactly ``__builtins__`` (the builtins module), one
   object per namespace and one class per error class - no ``__name__``, no ``__file__``. ``tools.name(args)`` and ``tools["exotic-name"](args)`` both call the host with exactly
   one JSON argument; a failed call raises the namespace's error class with the member's name in the
   ``memberProperty`` attribute (``err.toolName``) and the host's ``code`` and ``data`` (None when absent). Builtins changed through ``import builtins`` are
   restored when the run ends, and ``sys.stdout`` / ``sys.stderr`` are put back.

   The result is ``{"value": json_value}`` or ``{"error": {"kind", "message", "name"}}`` with
   ``kind`` one of ``exception`` (the program raised, including ``SystemExit``) or ``invalid-output``
   (the returned value is not lossless JSON: only dict with str keys, list/tuple, str, bool, None,
   integers within +/-(2**53 - 1) and finite floats other than -0.0; no cycles; the message names the
   JSON path, e.g. ``$.list[1]``). An exception's message is the traceback of the program's own frames
   (``File "<program>", line 3``) ending with ``ValueError: boom``, or just ``str(error)`` when no
   program frame is involved.

2. ``main()`` - the pre-fork server used by the process and container isolations. It speaks JSON lines on
   the stdin/stdout it was started with, then points fds 0 and 1 at /dev/null so nothing a program does to
   its standard streams reaches the host. Frames (one JSON object per line):

   host -> server  ``{"type": "run", "source", "namespaces", "limits": {"memoryBytes", "processes"}}``
                   ``{"type": "reply", "call": k, "ok": value}`` or ``{"type": "reply", "call": k, "error": msg, "code"?, "data"?}``
                   ``{"type": "abort"}`` - kill the running program now.
   server -> host  ``{"type": "ready", "python": "3.11.7"}`` once, at start.
                   ``{"type": "started", "group": pgid}`` - the run's process group, before the program gets
                   its frame (the host kills that group if the server ever stops answering).
                   ``{"type": "call", "call": k, "namespace", "member", "args"}``
                   ``{"type": "log", "line": str}``
                   ``{"type": "result", "value" | "error"}`` (as ``run_program`` returns it)
                   ``{"type": "written", "bytes": n}`` - the run wrote n more bytes straight to its fds 1 and 2
                   (``os.write``): they are not shown, but they count against the output cap.
                   ``{"type": "ended", "status": "exit 0" | "signal 9"}`` - the run's process and everything it
                   started are gone (and every ``written`` frame of the run was sent); the server takes the
                   next ``run``. ``"limit": "memory" | "disk"`` is added when the run was ended for going
                   over that budget.

   The server takes one optional argument, a JSON object saying how runs are kept apart::

       {"scratch": "/tmp/concord-runs-x", "uidBase": 2000000000, "wipe": ["/tmp"], "namespaces": true,
        "diskBytes": 268435456, "memoryCgroup": {"path": "/sys/fs/cgroup/memory/x", "version": 1, "bytes": 536870912}}

   and, after it, optionally the server's pid as the host sees it (a server in a PID namespace of its own
   is pid 1 there, so its own pid cannot tell its runs' uids apart from another server's).

   ``scratch``  a folder the server may write; each run gets a fresh folder inside it as its working
                directory, ``TMPDIR`` and ``HOME``, removed with everything in it once the run is over.
   ``uidBase``  when the server runs as root: each run switches to a uid (and gid) of its own,
                ``uidBase + pid * RUN_UID_SLOTS + n`` for the server's pid and its n-th run, before the
                program starts. Pids are unique among live processes, so no two live runs on the host
                share an account: a run cannot signal, trace or read another. Every process of that uid is
                killed before the uid's first run on this server (an earlier server with the same pid may have
                died mid-run); after each run the server kills and reaps everything the run started.
   ``wipe``     folders whose entries are removed after every run (a container's private ``/tmp``).
   ``namespaces``  the server runs as root in mount, IPC and PID namespaces of its own: each run gets a fresh
                IPC namespace (no shared memory, queue or semaphore outlives the run or is seen by another),
                and, with ``diskBytes``, its scratch folder is a private tmpfs of that size.
   ``diskBytes``  what a run may keep in its scratch folder (its files' pages, 4 KiB each); a run that
                holds more is ended and its ``ended`` frame says ``"limit": "disk"``.
   ``memoryCgroup``  a memory cgroup (v1 or v2) the server may create children in: each run's processes
                together may use ``bytes``; a run the kernel's OOM killer touched is ended and its
                ``ended`` frame says ``"limit": "memory"``.

   Every descriptor above 2 that the server inherited is closed when it starts, and a run's child closes
   all but its own pipes before the program starts: a descriptor a caller left open (a CI shell's
   ``exec 200>>file``) never reaches a program.

   Each ``run`` forks a fresh child of the idle server, so no state survives between runs. The child gets
   private pipes to the server, never the host's channel; the server forwards only well-formed
   ``call``/``log``/``result`` frames and drops everything else, so ``ready``, ``started`` and ``ended``
   can only come from the server itself.

   The run channel. Relaying costs two extra process wake-ups per tool call (and, in a container, two
   trips through the Docker daemon), so a ``run`` frame may carry ``"channel": {"path", "token"}``: a Unix
   socket the host listens on, used by this run only. The child connects, sends the token as one line and
   waits for ``{"type":"attached"}``; from then on its ``call``/``log``/``result`` frames and the host's
   ``reply`` frames travel over that socket and the server relays nothing. The host accepts only those
   three frame types on it and only for the run the token was minted for; the socket closes when the
   run's last process is gone. When the socket cannot be reached (a remote Docker engine, a daemon that
   remaps users), the child keeps the relayed pipes.
"""

import ast
import asyncio
import builtins
import gc
import json
import math
import os
import re
import select
import selectors
import signal
import sys
import traceback
import types

# The channel keeps its own references: a program that patches json or os breaks only itself.
_dumps = json.dumps
# Built once: json.dumps/json.loads with arguments build a new encoder on every call, and a tool call
# goes through JSON four times.
_encode_json = json.JSONEncoder(allow_nan=False, separators=(",", ":")).encode
_decode_json = json.JSONDecoder().decode
_os_write = os.write
_os_exit = os._exit


PROGRAM_FILENAME = "<program>"
MAX_SAFE_INTEGER = 2**53 - 1
# A frame longer than this from a program is junk; the host applies the real output limit.
MAX_FRAME_BYTES = 64 * 1024 * 1024
# How long a child waits for the host to accept its run channel before it keeps the relayed pipes.
CHANNEL_ATTACH_SECONDS = 10
CHANNEL_ATTACHED = b'{"type":"attached"}\n'
# Uids one server cycles through for its runs (see the ``uidBase`` option).
RUN_UID_SLOTS = 16
CO_ASYNC_GENERATOR = 0x200


# ---------------------------------------------------------------------------------------------------
# run_program: the transport-agnostic core
# ---------------------------------------------------------------------------------------------------


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def _json_path(node):
    """``$.items[3]["a-b"]`` for a chain of (parent, key) nodes, spelled as the host spells JSON paths."""
    keys = []
    while node is not None:
        node, key = node
        keys.append(key)
    path = "$"
    for key in reversed(keys):
        if isinstance(key, int):
            path += "[%d]" % key
        elif _IDENTIFIER.match(key):
            path += "." + key
        else:
            path += "[%s]" % _dumps(key, ensure_ascii=False)
    return path


def _scalar_problem(item):
    """Why a non-container is not lossless JSON, or None when it is."""
    if item is None or isinstance(item, (bool, str)):
        return None
    if isinstance(item, int):
        if -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
            return None
        return "the integer %d is outside +/-(2**53 - 1) and would lose precision" % item
    if isinstance(item, float):
        if not math.isfinite(item):
            return "%r is not a finite number" % item
        if item == 0.0 and math.copysign(1.0, item) < 0:
            return "-0.0 does not survive JSON (it reads back as 0)"
        return None
    return "a value of type %s is not JSON" % type(item).__name__


def json_problem(value):
    """Why ``value`` is not lossless JSON (``$.path: reason``), or None. Iterative: depth is unbounded."""
    on_path = set()
    # Entries are (item, node, leaving); a node is (parent node, key) and becomes a path only on failure.
    stack = [(value, None, False)]
    while stack:
        item, node, leaving = stack.pop()
        if leaving:
            on_path.discard(id(item))
            continue
        if not isinstance(item, (dict, list, tuple)):
            problem = _scalar_problem(item)
            if problem is not None:
                return "%s: %s" % (_json_path(node), problem)
            continue
        if id(item) in on_path:
            return "%s: the value contains itself (a cycle)" % _json_path(node)
        on_path.add(id(item))
        stack.append((item, None, True))
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    return "%s: the key %r is not a string" % (_json_path(node), key)
                stack.append((child, (node, key), False))
        else:
            stack.extend((child, (node, index), False) for index, child in enumerate(item))
    return None


def _make_error_class(spec):
    member_property = spec["memberProperty"]

    def __init__(self, message="", member=None, code=None, data=None):
        Exception.__init__(self, message)
        setattr(self, member_property, member)
        self.code = code
        self.data = data

    cls = type(spec["name"], (Exception,), {"__init__": __init__, "__module__": "concord"})
    return cls


def _make_namespace(spec, error_class, call_host):
    name = spec["name"]
    members = {}
    for member in spec["members"]:
        members[member] = _make_member(name, member, error_class, call_host)

    class Namespace:
        __slots__ = ()

        def __getattr__(self, member):
            try:
                return members[member]
            except KeyError:
                raise AttributeError("%s has no member %r" % (name, member)) from None

        def __getitem__(self, member):
            try:
                return members[member]
            except (KeyError, TypeError):
                raise KeyError(member) from None

        def __contains__(self, member):
            return member in members

        def __dir__(self):
            return sorted(members)

        def __repr__(self):
            return "<%s: %s>" % (name, ", ".join(sorted(members)))

    Namespace.__name__ = Namespace.__qualname__ = name.capitalize()
    Namespace.__module__ = "concord"
    return Namespace()


def _make_member(namespace, member, error_class, call_host):
    async def call(args):
        problem = json_problem(args)
        if problem is not None:
            raise TypeError("%s[%r]: the arguments are not JSON: %s" % (namespace, member, problem))
        # A round trip through JSON gives the host its own copy, whatever the program does afterwards.
        reply = await call_host(namespace, member, _decode_json(_encode_json(args)))
        if "error" in reply:
            message = reply["error"]
            if error_class is None:
                raise RuntimeError(message)
            raise error_class(message, member, reply.get("code"), reply.get("data"))
        return reply["ok"]

    call.__name__ = call.__qualname__ = member if member.isidentifier() else "call"
    return call


class _LogWriter:
    """A text stream that hands each complete line to ``write_log``."""

    def __init__(self, write_log):
        self._write_log = write_log
        self._pending = ""

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not %s" % type(text).__name__)
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        for line in lines:
            self._write_log(line)
        return len(text)

    def flush(self):
        if self._pending:
            line, self._pending = self._pending, ""
            self._write_log(line)

    def isatty(self):
        return False

    def writable(self):
        return True


def _compile(source):
    """The program as an async function's code object, keeping its own line numbers."""
    module = ast.parse(source, PROGRAM_FILENAME)
    wrapper = ast.parse("async def program():\n    pass\n")
    function = wrapper.body[0]
    if module.body:
        function.body = module.body
    code = compile(wrapper, PROGRAM_FILENAME, "exec")
    function_code = next(c for c in code.co_consts if hasattr(c, "co_code"))
    if function_code.co_flags & CO_ASYNC_GENERATOR:
        raise SyntaxError("'yield' is not allowed at the top level of a program")
    return function_code


def _program_traceback(error):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == PROGRAM_FILENAME]
    if isinstance(error, SyntaxError):
        return "".join(traceback.format_exception_only(type(error), error))
    if not frames:
        return ""
    lines = ["Traceback (most recent call last):\n"]
    lines.extend(traceback.format_list(frames))
    lines.extend(traceback.format_exception_only(type(error), error))
    return "".join(lines)


def _error(kind, message, name):
    return {"error": {"kind": kind, "message": message, "name": name}}


def _exception_result(error):
    # The program's own traceback (it ends with the usual "Name: message" line) tells where it failed.
    message = _program_traceback(error).rstrip() or str(error)
    return _error("exception", message, type(error).__name__)


async def run_program(source, namespaces, call_host, write_log):
    """Run one program; see the module docstring for the contract."""
    saved_builtins = dict(vars(builtins))
    saved_streams = (sys.stdout, sys.stderr)
    writer = _LogWriter(write_log)
    try:
        try:
            code = _compile(source)
        except (SyntaxError, ValueError) as error:
            return _exception_result(error)
        program_globals = {"__builtins__": builtins}
        for spec in namespaces:
            error_class = None
            if spec.get("errorClass"):
                error_class = _make_error_class(spec["errorClass"])
                program_globals[error_class.__name__] = error_class
            program_globals[spec["name"]] = _make_namespace(spec, error_class, call_host)
        function = types.FunctionType(code, program_globals, "program")
        sys.stdout = sys.stderr = writer
        try:
            value = await function()
        except BaseException as error:  # the program may raise anything, SystemExit included
            return _exception_result(error)
        finally:
            sys.stdout, sys.stderr = saved_streams
            writer.flush()
        problem = json_problem(value)
        if problem is not None:
            return _error("invalid-output", "the program returned a value that is not JSON: " + problem, "")
        return {"value": value}
    finally:
        sys.stdout, sys.stderr = saved_streams
        changed = vars(builtins)
        changed.clear()
        changed.update(saved_builtins)


# ---------------------------------------------------------------------------------------------------
# main: the pre-fork server speaking JSON lines to the host
# ---------------------------------------------------------------------------------------------------


def _encode(frame):
    return (_encode_json(frame) + "\n").encode()


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        try:
            view = view[_os_write(fd, view):]
        except BlockingIOError:
            # A run channel reads and writes one socket, and the event loop reads it non-blocking.
            select.select((), (fd,), ())


class _LineReader:
    """Splits the bytes of one fd into lines; drops lines longer than MAX_FRAME_BYTES."""

    def __init__(self, fd):
        self.fd = fd
        self._buffer = bytearray()
        self._skipping = False

    def read(self):
        """Complete lines now available, or None at end of file."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            return None
        lines = []
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            if not self._skipping:
                self._buffer += chunk[start:end]
                lines.append(bytes(self._buffer))
            self._buffer.clear()
            self._skipping = False
            start = end + 1
        if not self._skipping:
            self._buffer += chunk[start:]
            if len(self._buffer) > MAX_FRAME_BYTES:
                self._buffer.clear()
                self._skipping = True
        return lines


def _parse(line):
    try:
        frame = _decode_json(line.decode())
    except ValueError:  # UnicodeDecodeError included
        return None
    return frame if isinstance(frame, dict) else None


def _libc():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):
        return None


PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWIPC = 0x08000000
MNT_DETACH = 2
MS_NOSUID = 2
MS_NODEV = 4
# How often a run with a memory or disk budget is checked while it runs.
BUDGET_CHECK_SECONDS = 0.1


def _close_descriptors(keep=()):
    """Closes every descriptor above 2 but ``keep``: whatever a caller of the host left open must never
    reach a program (a CI shell's ``exec 200>>file`` would let it append to that file)."""
    keep = set(keep)
    try:
        open_fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        open_fds = range(3, os.sysconf("SC_OPEN_MAX"))
    for fd in open_fds:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _check_libc(result, what):
    if result != 0:
        import ctypes

        error = ctypes.get_errno()
        raise OSError(error, "%s: %s" % (what, os.strerror(error)))


class _DiskBudget:
    """A run's scratch folder as a private tmpfs of ``limit`` bytes (plus a page, so exactly the budget fits
    and a byte more shows). Mounted in the server's own mount namespace: the host never sees it."""

    PAGE = 4096

    def __init__(self, libc, folder, limit, uid):
        self.libc = libc
        self.folder = folder
        self.limit = limit
        pages = -(-limit // self.PAGE)
        options = "size=%d,nr_inodes=%d,mode=0700" % ((pages + 1) * self.PAGE, max(256, pages))
        if uid is not None:
            options += ",uid=%d,gid=%d" % (uid, uid)
        _check_libc(
            libc.mount(b"tmpfs", folder.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()),
            "mount a tmpfs on " + folder,
        )

    def exceeded(self):
        try:
            info = os.statvfs(self.folder)
        except OSError:
            return False
        return (info.f_blocks - info.f_bfree) * info.f_frsize > self.limit or info.f_ffree == 0

    def release(self):
        self.libc.umount2(self.folder.encode(), MNT_DETACH)


class _MemoryBudget:
    """A memory cgroup of the run's own: its processes together may use ``limit`` bytes."""

    FILES = {
        1: {"limit": "memory.limit_in_bytes", "swap": "memory.memsw.limit_in_bytes", "events": "memory.oom_control"},
        2: {"limit": "memory.max", "swap": "memory.swap.max", "events": "memory.events"},
    }

    def __init__(self, parent, version, name, limit):
        self.path = os.path.join(parent, name)
        self.files = self.FILES[version]
        self.version = version
        self.remove()
        os.mkdir(self.path)
        self._write(self.files["limit"], limit)
        # Swap would let a run hold more than its budget: version 1 caps memory + swap, version 2 swap alone.
        try:
            self._write(self.files["swap"], limit if version == 1 else 0)
        except OSError:
            pass  # no swap accounting on this host
        if version == 2:
            try:
                self._write("memory.oom.group", 1)
            except OSError:
                pass

    def _write(self, name, value):
        with open(os.path.join(self.path, name), "w") as control:
            control.write(str(value))

    def join(self):
        """Moves the calling process (and so all it will start) into the cgroup."""
        self._write("cgroup.procs", 0)

    def exceeded(self):
        try:
            with open(os.path.join(self.path, self.files["events"])) as events:
                for line in events:
                    name, _, count = line.partition(" ")
                    if name == "oom_kill" and int(count) > 0:
                        return True
        except (OSError, ValueError):
            pass
        return False

    def remove(self):
        try:
            os.rmdir(self.path)
        except FileNotFoundError:
            pass


def _children(pid):
    try:
        with open("/proc/self/task/%d/children" % pid) as listing:
            return [int(p) for p in listing.read().split()]
    except OSError:
        return []


def _reap_descendants():
    """Kill every process the run left behind; orphans come back to this subreaper, so loop."""
    me = os.getpid()
    while True:
        children = _children(me)
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for child in children:
            try:
                os.waitpid(child, 0)
            except ChildProcessError:
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not children:
            return


def _kill_group(group):
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _status_text(status):
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status)
    return "exit %d" % os.WEXITSTATUS(status)


def _become(uid):
    """Drops every privilege for ``uid`` (and the gid of the same number), with no supplementary groups."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def _signal_uid(uid):
    """A helper becomes ``uid`` and sends SIGKILL to every process it may signal: all of that uid but itself."""
    pid = os.fork()
    if pid == 0:
        try:
            _become(uid)
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        _os_exit(0)
    os.waitpid(pid, 0)


def _kill_uid(uid):
    """Kills every process of ``uid``: one round reaches them all, because a new process joins the end of
    the kernel's task list (the signal reaches it later in the same walk) and a fork racing with the signal
    fails. Orphans come back to this subreaper and are reaped."""
    _signal_uid(uid)
    _reap_descendants()


def _remove_entries(folder):
    import shutil

    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        path = os.path.join(folder, entry)
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass


class _RunPlace:
    """Where one run lives: its uid (or None), its scratch folder (or None) and its budgets (or None)."""

    def __init__(self, uid, scratch, disk=None, memory=None, own_ipc=False):
        self.uid = uid
        self.scratch = scratch
        self.disk = disk
        self.memory = memory
        self.own_ipc = own_ipc

    def confine(self, libc):
        """In the run's child, still as root: join the run's memory cgroup and take a fresh IPC namespace,
        so every SysV object the run creates dies with its last process and no other run sees it."""
        if self.memory is not None:
            self.memory.join()
        if self.own_ipc:
            _check_libc(libc.unshare(CLONE_NEWIPC), "unshare an IPC namespace")

    def exceeded(self):
        """``"memory"`` or ``"disk"`` once the run went over that budget, else None."""
        if self.memory is not None and self.memory.exceeded():
            return "memory"
        if self.disk is not None and self.disk.exceeded():
            return "disk"
        return None

    def release(self):
        if self.disk is not None:
            self.disk.release()
        if self.memory is not None:
            self.memory.remove()

    def enter(self):
        """In the run's child: move into the scratch folder and drop to the run's uid."""
        if self.scratch is not None:
            os.chdir(self.scratch)
            os.environ["TMPDIR"] = os.environ["HOME"] = self.scratch
        if self.uid is not None:
            _become(self.uid)


class _Server:
    def __init__(self, options):
        scratch = options.get("scratch")
        self.scratch_parent = scratch if isinstance(scratch, str) and scratch else None
        uid_base = options.get("uidBase")
        self.uid_base = uid_base if isinstance(uid_base, int) and os.getuid() == 0 else None
        wipe = options.get("wipe")
        self.wipe = [folder for folder in wipe if isinstance(folder, str)] if isinstance(wipe, list) else []
        host_pid = options.get("hostPid")
        self.slot_pid = host_pid if isinstance(host_pid, int) and host_pid > 0 else os.getpid()
        root = os.getuid() == 0
        self.namespaces = options.get("namespaces") is True and root
        disk = options.get("diskBytes")
        self.disk_bytes = disk if isinstance(disk, int) and disk > 0 and self.namespaces and self.scratch_parent else None
        cgroup = options.get("memoryCgroup")
        self.cgroup = None
        if root and isinstance(cgroup, dict):
            path, version, limit = cgroup.get("path"), cgroup.get("version"), cgroup.get("bytes")
            if isinstance(path, str) and version in (1, 2) and isinstance(limit, int) and limit > 0:
                self.cgroup = (path, version, limit)
        self.runs = 0
        self.libc = _libc()
        if self.libc is None and (self.namespaces or self.cgroup is not None):
            raise SystemExit("concord guest: ctypes is needed to keep runs apart (namespaces, budgets)")
        self.proto_in = os.dup(0)
        self.proto_out = os.dup(1)
        self.devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(self.devnull, 0)
        os.dup2(self.devnull, 1)
        sys.stdin = sys.stdout = None
        self.host = _LineReader(self.proto_in)
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        signal.set_wakeup_fd(self.wake_w)
        if self.libc is not None:
            self.libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    def send(self, frame):
        _write_all(self.proto_out, _encode(frame))

    def serve(self):
        self.send({"type": "ready", "python": "%d.%d.%d" % sys.version_info[:3]})
        # Everything imported so far is shared by every run: keep the collector from touching (and so
        # copying) those pages in each child.
        gc.freeze()
        spare = self._fork_spare()
        while True:
            lines = self.host.read()
            if lines is None:
                return
            for line in lines:
                frame = _parse(line)
                if frame is not None and frame.get("type") == "run":
                    if not self.run(line, spare):
                        return
                    spare = self._fork_spare()

    def _place(self):
        """The next run's uid and scratch folder, made ready: nothing of an earlier holder survives."""
        n = self.runs % RUN_UID_SLOTS
        self.runs += 1
        uid = None
        if self.uid_base is not None:
            uid = self.uid_base + self.slot_pid * RUN_UID_SLOTS + n
            if self.runs <= RUN_UID_SLOTS:
                # First use here: an earlier server with this pid may have died mid-run and left processes.
                _kill_uid(uid)
        scratch = None
        if self.scratch_parent is not None:
            scratch = os.path.join(self.scratch_parent, "run-%d-%d" % (self.slot_pid, n))
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)
            os.mkdir(scratch, 0o700)
            if uid is not None:
                os.chown(scratch, uid, uid)
        disk = None
        if self.disk_bytes is not None and scratch is not None:
            disk = _DiskBudget(self.libc, scratch, self.disk_bytes, uid)
        memory = None
        if self.cgroup is not None:
            parent, version, limit = self.cgroup
            memory = _MemoryBudget(parent, version, "run-%d" % n, limit)
        return _RunPlace(uid, scratch, disk, memory, self.namespaces)

    def _clear(self, place):
        """After a run: nothing it wrote stays. Its processes are already gone: every one of them descends
        from this subreaper, which killed and reaped them all, so its uid needs no signal of its own."""
        place.release()
        if place.scratch is not None:
            import shutil

            shutil.rmtree(place.scratch, ignore_errors=True)
        for folder in self.wipe:
            _remove_entries(folder)

    def _fork_spare(self):
        """A child forked ahead of its run, waiting for the run frame: forking is off the run's path."""
        place = self._place()
        up_r, up_w = os.pipe()
        down_r, down_w = os.pipe()
        # The run's fds 1 and 2: what it writes there is counted, never shown.
        out_r, out_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(up_r)
            os.close(down_w)
            os.close(out_r)
            self._child(up_w, down_r, out_w, place)
        # Its own process group, so one signal reaches everything the run starts (set on both sides of
        # the fork: whichever runs first wins the race).
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        os.close(up_w)
        os.close(down_r)
        os.close(out_w)
        return pid, up_r, down_w, out_r, place

    def run(self, line, spare):
        """Hand the run frame ``line`` to the spare child and relay; False when the host has gone away."""
        pid, up_r, down_w, out_r, place = spare
        started = {"type": "started", "group": pid}
        if place.uid is not None:
            started["uid"] = place.uid
        self.send(started)
        try:
            _write_all(down_w, line + b"\n")
        except BrokenPipeError:
            pass  # the spare is gone; the relay reports its exit as the run's end
        os.set_blocking(down_w, False)
        host_open = self._relay(pid, up_r, down_w, out_r, place)
        os.close(up_r)
        os.close(down_w)
        os.close(out_r)
        return host_open

    def _count_written(self, out_r):
        """Reads what the run wrote to its fds 1 and 2 and tells the host how much; False at end of file."""
        data = os.read(out_r, 1 << 16)
        if data:
            self.send({"type": "written", "bytes": len(data)})
        return bool(data)

    def _relay(self, pid, up_r, down_w, out_r, place):
        selector = selectors.DefaultSelector()
        selector.register(self.proto_in, selectors.EVENT_READ, "host")
        selector.register(up_r, selectors.EVENT_READ, "child")
        selector.register(out_r, selectors.EVENT_READ, "written")
        selector.register(self.wake_r, selectors.EVENT_READ, "signal")
        child = _LineReader(up_r)
        pending = bytearray()
        host_open = True
        status = None
        watched = place.memory is not None or place.disk is not None
        limit = None
        while status is None:
            events = selector.select(BUDGET_CHECK_SECONDS if watched else None)
            if watched and limit is None:
                limit = place.exceeded()
                if limit is not None:
                    _kill_group(pid)
            for key, _ in events:
                if key.data == "host":
                    lines = self.host.read()
                    if lines is None:
                        host_open = False
                        selector.unregister(self.proto_in)
                        _kill_group(pid)
                        continue
                    for line in lines:
                        frame = _parse(line)
                        if frame is None:
                            continue
                        if frame.get("type") == "reply":
                            pending += line + b"\n"
                        elif frame.get("type") == "abort":
                            _kill_group(pid)
                elif key.data == "child":
                    if not self._forward(child):
                        selector.unregister(up_r)
                elif key.data == "written":
                    if not self._count_written(out_r):
                        selector.unregister(out_r)
                elif key.data == "signal":
                    os.read(self.wake_r, 512)
                    done, raw = os.waitpid(pid, os.WNOHANG)
                    if done:
                        status = raw
            pending = self._flush(down_w, pending, selector)
        selector.close()
        # Descendants first: once no writer is left, the pipe holds all the run ever wrote.
        _kill_group(pid)
        _reap_descendants()
        if limit is None:
            limit = place.exceeded()
        self._clear(place)
        os.set_blocking(up_r, False)
        try:
            while self._forward(child):
                pass
        except BlockingIOError:
            pass
        os.set_blocking(out_r, False)
        try:
            while self._count_written(out_r):
                pass
        except BlockingIOError:
            pass
        if host_open:
            ended = {"type": "ended", "status": _status_text(status)}
            if limit is not None:
                ended["limit"] = limit
            self.send(ended)
        return host_open

    def _flush(self, down_w, pending, selector):
        if not pending:
            return pending
        try:
            written = os.write(down_w, pending)
        except BlockingIOError:
            written = 0
        except BrokenPipeError:
            return bytearray()  # the program closed its side; its calls can never complete
        del pending[:written]
        registered = down_w in selector.get_map()
        if pending and not registered:
            selector.register(down_w, selectors.EVENT_WRITE, "down")
        elif not pending and registered:
            selector.unregister(down_w)
        return pending

    def _forward(self, child):
        """Forward the child's well-formed frames; False at end of file."""
        lines = child.read()
        if lines is None:
            return False
        out = bytearray()
        for line in lines:
            frame = _parse(line)
            if frame is not None and frame.get("type") in ("call", "log", "result"):
                out += line + b"\n"
        if out:
            _write_all(self.proto_out, out)
        return True

    def _child(self, up_w, down_r, out_w, place):
        status = 70
        try:
            os.setpgid(0, 0)
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for fd in (self.proto_in, self.proto_out, self.wake_r, self.wake_w):
                os.close(fd)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            os.close(out_w)
            os.close(self.devnull)
            _close_descriptors(keep=(up_w, down_r))
            place.confine(self.libc)
            if self.libc is not None:
                self.libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
                self.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            session = _ChildSession(up_w, down_r)
            frame = session.wait_for_run()
            if frame is not None:
                # The channel is reached with the server's rights; only then does the run drop to its own.
                session.attach(frame.get("channel"))
                place.enter()
                if self.libc is not None:
                    # A change of uid clears the parent-death signal: set it again.
                    self.libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                _apply_limits(frame.get("limits") or {}, self.libc)
                session.run(frame)
            status = 0
        finally:
            _os_exit(status)


M_ARENA_MAX = -8


def _apply_limits(limits, libc):
    import resource  # not in Pyodide's standard library: only the pre-fork server needs it

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    memory = limits.get("memoryBytes")
    if isinstance(memory, int) and memory > 0:
        # glibc reserves 64 MiB of address space per thread arena: under an address-space cap a few
        # threads would fail to start without using any memory. Two arenas make the cap count real use.
        if libc is not None:
            libc.mallopt(M_ARENA_MAX, 2)
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    processes = limits.get("processes")
    if isinstance(processes, int) and processes > 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


class _ChildSession:
    """The forked child's side: runs the program, its calls and logs travel over private pipes."""

    def __init__(self, up_w, down_r):
        self.up_w = up_w
        self.down_r = down_r
        self.replies = _LineReader(down_r)
        self.waiting = {}
        self.next_call = 0

    def send(self, frame):
        _write_all(self.up_w, _encode(frame))

    def wait_for_run(self):
        """Prepares the event loop, then blocks until the run frame arrives (None: the server is gone)."""
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        lines = []
        while not lines:
            lines = self.replies.read()
            if lines is None:
                return None
        return _parse(lines[0])

    def attach(self, channel):
        """Moves this run's frames onto the host's run channel when one is offered and answers."""
        if not isinstance(channel, dict):
            return
        path = channel.get("path")
        token = channel.get("token")
        if not isinstance(path, str) or not isinstance(token, str):
            return
        import socket

        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.settimeout(CHANNEL_ATTACH_SECONDS)
            connection.connect(path)
            connection.sendall(token.encode() + b"\n")
            answer = b""
            while not answer.endswith(b"\n") and len(answer) < len(CHANNEL_ATTACHED):
                chunk = connection.recv(len(CHANNEL_ATTACHED) - len(answer))
                if not chunk:
                    break
                answer += chunk
        except OSError:
            connection.close()
            return
        if answer != CHANNEL_ATTACHED:
            connection.close()
            return
        connection.setblocking(True)
        fd = connection.detach()
        self.up_w = self.down_r = fd
        self.replies = _LineReader(fd)

    def run(self, frame):
        loop = self.loop
        os.set_blocking(self.down_r, False)
        loop.add_reader(self.down_r, self._on_replies)
        result = loop.run_until_complete(
            run_program(frame.get("source", ""), frame.get("namespaces", []), self.call_host, self.write_log)
        )
        try:
            data = _encode(dict(result, type="result"))
        except RecursionError:
            data = _encode(
                dict(_error("invalid-output", "the returned value is nested too deeply to send as JSON", ""), type="result")
            )
        _write_all(self.up_w, data)

    def write_log(self, line):
        self.send({"type": "log", "line": line})

    async def call_host(self, namespace, member, args):
        self.next_call += 1
        call = self.next_call
        future = asyncio.get_running_loop().create_future()
        self.waiting[call] = future
        self.send({"type": "call", "call": call, "namespace": namespace, "member": member, "args": args})
        return await future

    def _on_replies(self):
        try:
            lines = self.replies.read()
        except BlockingIOError:
            return
        if lines is None:
            asyncio.get_running_loop().remove_reader(self.down_r)
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the host channel is closed"))
            return
        for line in lines:
            frame = _parse(line)
            if frame is None:
                continue
            future = self.waiting.pop(frame.get("call"), None)
            if future is None or future.done():
                continue
            if "error" in frame:
                future.set_result({"error": str(frame["error"]), "code": frame.get("code"), "data": frame.get("data")})
            else:
                future.set_result({"ok": frame.get("ok")})


def main():
    _close_descriptors()
    options = {}
    if len(sys.argv) > 1:
        try:
            options = json.loads(sys.argv[1])
        except ValueError:
            options = {}
    if not isinstance(options, dict):
        options = {}
    if len(sys.argv) > 2 and sys.argv[2].isdigit():
        options["hostPid"] = int(sys.argv[2])
    _Server(options).serve()


if __name__ == "__main__":
    main()
