/**
 * Compiles sources as modules without running them (stdlib only, 3.8+): `compile_sources(sources)` gives one
 * outcome per source, in the shape the Pyodide driver reports, so every interpreter of the matrix answers
 * alike. Lone surrogates arrive as JSON escapes and fail as the ValueError `compile()` raises for them. The
 * checker of local and container CPythons (import-script.ts) serves it.
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

def about():
    # sys.version names the build (its date and compiler), which the version alone does not.
    return {"python": "%d.%d.%d" % sys.version_info[:3], "unicode": unicodedata.unidata_version, "build": sys.version}
`;
