/**
 * Compiles sources as modules without running them (stdlib only, 3.8+): `compile_sources(sources)` gives one
 * outcome per source, in the shape the Pyodide driver reports, so every interpreter of the matrix answers
 * alike. Lone surrogates arrive as JSON escapes and fail as the ValueError `compile()` raises for them.
 */
export const COMPILE_DEFINITIONS = String.raw`
import json, sys, unicodedata

def compile_sources(sources, codes=None):
    # codes, when given, receives each source's code object (None where it did not compile).
    results = []
    for index, source in enumerate(sources):
        code = None
        try:
            code = compile(source, "<source %d>" % index, "exec", dont_inherit=True)
            results.append({"ok": True})
        except SyntaxError as error:
            results.append({"ok": False, "name": type(error).__name__, "message": str(error.msg), "line": error.lineno, "column": error.offset})
        except (ValueError, RecursionError, MemoryError) as error:
            results.append({"ok": False, "name": type(error).__name__, "message": str(error), "line": None, "column": None})
        if codes is not None:
            codes.append(code)
    return results

def read_sources():
    # Stdin is decoded as UTF-8 whatever the locale.
    return json.loads(sys.stdin.buffer.read().decode("utf-8"))

def about():
    return {"python": "%d.%d.%d" % sys.version_info[:3], "unicode": unicodedata.unidata_version}
`;

/** The batch compiler run by local and container CPythons: JSON sources on stdin, one JSON report on stdout. */
export const COMPILE_SCRIPT = `${COMPILE_DEFINITIONS}
_report = about()
_report["results"] = compile_sources(read_sources())
sys.stdout.write(json.dumps(_report))
`;
