/**
 * The batch compiler run by local and container CPythons (stdlib only, 3.8+): JSON sources on stdin, one
 * JSON report on stdout. Outcomes have the shape the Pyodide driver reports, so every interpreter of the
 * matrix answers alike. Stdin is decoded as UTF-8 whatever the locale; lone surrogates arrive as JSON escapes
 * and fail as the ValueError `compile()` raises for them.
 */
export const COMPILE_SCRIPT = String.raw`
import json, sys, unicodedata
results = []
for index, source in enumerate(json.loads(sys.stdin.buffer.read().decode("utf-8"))):
    try:
        compile(source, "<source %d>" % index, "exec", dont_inherit=True)
        results.append({"ok": True})
    except SyntaxError as error:
        results.append({"ok": False, "name": type(error).__name__, "message": str(error.msg), "line": error.lineno, "column": error.offset})
    except (ValueError, RecursionError, MemoryError) as error:
        results.append({"ok": False, "name": type(error).__name__, "message": str(error), "line": None, "column": None})
report = {"python": "%d.%d.%d" % sys.version_info[:3], "unicode": unicodedata.unidata_version, "results": results}
sys.stdout.write(json.dumps(report))
`;
