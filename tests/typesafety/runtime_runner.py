"""Execute case files one after another and report, as JSON, how each ended.

Used by test_agreement.py in a subprocess (numba is imported once for all cases):

    NUMBA_ENABLE_CUDASIM=1 python tests/typesafety/runtime_runner.py case.py ...

For each case: the exception it raised (type and the traceback's frames) and the
ResourceWarnings issued while it ran, including the garbage collection right after it.
What the cases print is swallowed: stdout carries only the JSON.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import runpy
import sys
import traceback
import warnings


def run_one(path: str) -> dict[str, object]:
    result: dict[str, object] = {
        "path": path,
        "exception": None,
        "frames": [],
        "context_frames": [],
        "warnings": [],
    }
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        try:
            runpy.run_path(path, run_name="__main__")
        except Exception as exc:
            result["exception"] = type(exc).__name__
            result["message"] = str(exc)
            result["frames"] = [
                [f.filename, f.lineno] for f in traceback.extract_tb(exc.__traceback__)
            ]
            # The exceptions it was raised while handling (a cleanup failing after the
            # first failure): where that first failure happened.
            context: list[list[object]] = []
            inner = exc.__context__
            while inner is not None and len(context) < 200:
                context.extend(
                    [f.filename, f.lineno] for f in traceback.extract_tb(inner.__traceback__)
                )
                inner = inner.__context__
            result["context_frames"] = context
            del exc
        gc.collect()
    result["warnings"] = [
        [w.category.__name__, w.filename, w.lineno]
        for w in caught
        if issubclass(w.category, ResourceWarning)
    ]
    return result


def main(paths: list[str]) -> None:
    print(json.dumps([run_one(p) for p in paths]), flush=True)
    # A case may leave a thread blocked for ever (a consumer waiting on a queue whose
    # producer raised): leave without joining it, or the test would hang here.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
