#!/usr/bin/env bash
# Build every kernel (each src/_core/*.pyx) with AddressSanitizer and
# UndefinedBehaviorSanitizer into a separate folder, then run the test suite
# and a short stress (tools/sanitize_stress.py) against that build. The
# in-place kernels are not touched.
#
#   tools/sanitize.sh                 # the suite and the stress
#   tools/sanitize.sh tests/test_mcts.py -k stop   # other pytest arguments (and the stress)
#
# Sanitizer reports go to files in $SANITIZE_DIR/reports (pytest would hide
# the output of passing tests); the script fails (exit 1) when a test fails
# or when any report was written, and prints the reports' first lines.
# Needs gcc (its libasan), Cython and the package's test dependencies.
# Environment: SANITIZE_DIR (default build/sanitize), PYTHON (default
# python), SANITIZE_STRESS (arguments of the stress; "skip" skips it),
# SANITIZE_JOBS (parallel compiles, default 2), SANITIZE_KEEP_BUILD=1 (reuse
# the kernels of the last run: for re-running tests while the kernels'
# sources are unchanged).
set -euo pipefail
# (The body is one block: bash reads it whole, so a checkout that changes
# this file during a run cannot change the running script.)
{
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${SANITIZE_DIR:-$ROOT/build/sanitize}
PYTHON=${PYTHON:-python}
JOBS=${SANITIZE_JOBS:-2}
FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -O1 -g"
# Python's own flags include -fwrapv, which makes signed overflow defined
# (and so invisible to UBSan); the instrumented build checks it.
CFLAGS_SANITIZE="$FLAGS -fno-wrapv"
start=$SECONDS

LIBASAN=$(gcc -print-file-name=libasan.so)
if [ ! -e "$LIBASAN" ]; then
    echo "sanitize: gcc's libasan.so not found (gcc -print-file-name=libasan.so)" >&2
    exit 2
fi

# 1. A copy of the sources, built into $OUT/lib as the package would be
#    installed (python files, data and kernels).
if [ "${SANITIZE_KEEP_BUILD:-}" = 1 ] && [ -d "$OUT/lib/solvers/_core" ]; then
    echo "sanitize: reusing the kernels in $OUT/lib"
    rm -rf "$OUT/reports"
    mkdir -p "$OUT/reports"
else
    rm -rf "$OUT"
    mkdir -p "$OUT/tree" "$OUT/reports"
    (cd "$ROOT" && tar --exclude='*.so' --exclude='src/_core/*.c' --exclude='__pycache__' \
        -cf - setup.py pyproject.toml README.md src cli) | tar -C "$OUT/tree" -xf -
    echo "sanitize: building the kernels into $OUT/lib ($FLAGS)"
    (cd "$OUT/tree" && SOLVERS_CFLAGS="$CFLAGS_SANITIZE" LDFLAGS="$FLAGS" \
        "$PYTHON" setup.py -q build -j "$JOBS" --build-base "$OUT/build" --build-lib "$OUT/lib") \
        > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; echo "sanitize: the build failed" >&2; exit 2; }
fi
built=$(find "$OUT/lib/solvers/_core" -name '*.so' | wc -l)
sources=$(find "$ROOT/src/_core" -name '*.pyx' | wc -l)
if [ "$built" -ne "$sources" ]; then
    echo "sanitize: built $built kernels for $sources .pyx files" >&2
    exit 2
fi
echo "sanitize: $built kernels built in $((SECONDS - start)) s"

# 2. Run under the sanitizers: Python's allocator off (every object is a
#    malloc ASan watches), libasan loaded first, reports to files.
export PYTHONMALLOC=malloc
export LD_PRELOAD="$LIBASAN${LD_PRELOAD:+:$LD_PRELOAD}"
# Python's exit leaks by design: leak checking is off.
export ASAN_OPTIONS="detect_leaks=0:log_path=$OUT/reports/asan:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0:log_path=$OUT/reports/ubsan"
export PYTHONPATH="$OUT/lib:$ROOT/tools${PYTHONPATH:+:$PYTHONPATH}"
export SOLVERS_SANITIZED_LIB="$OUT/lib"

status=0
cd "$ROOT"
t0=$SECONDS
echo "sanitize: the test suite"
"$PYTHON" -m pytest --benchmark-disable -q -p no:cacheprovider -p sanitized_kernels "$@" \
    > "$OUT/pytest.log" 2>&1 || status=$?
tail -3 "$OUT/pytest.log"
echo "sanitize: tests took $((SECONDS - t0)) s"
if [ "${SANITIZE_STRESS:-}" != "skip" ]; then
    t0=$SECONDS
    echo "sanitize: the stress"
    # shellcheck disable=SC2086
    "$PYTHON" "$ROOT/tools/sanitize_stress.py" ${SANITIZE_STRESS:-} > "$OUT/stress.log" 2>&1 || status=$?
    tail -2 "$OUT/stress.log"
    echo "sanitize: stress took $((SECONDS - t0)) s"
fi

# 3. Any report fails the run.
reports=$(find "$OUT/reports" -type f | sort)
if [ -n "$reports" ]; then
    echo "sanitize: $(echo "$reports" | wc -l) sanitizer report(s):" >&2
    for f in $reports; do
        echo "== $f" >&2
        head -30 "$f" >&2
    done
    status=1
fi
if [ "$status" -ne 0 ]; then
    echo "sanitize: FAILED (logs in $OUT) after $((SECONDS - start)) s" >&2
    exit 1
fi
echo "sanitize: clean, $((SECONDS - start)) s in all"
exit 0
}
