#!/usr/bin/env bash
# One session on the GPU machine (../shared/docs/DEVICE.md), run from the project's root by
# the device tool with .whl carried: builds the package, runs tests/test_gpu.py on the real
# device, bench_gpu.py's NystroemSVC fits (issue 44: 10^6 on both, 10^7 on the GPU) and
# then, with the time left, the tasks of AFTER (default: DTW cells a second on the CPU's 16
# cores -- DTW eight pairs at a time, not yet measured there -- and on the GPU, a few
# seconds; the 10^7 fit on the CPU's 16 cores, then the DTW fits -- 10^5 series on both, 10^6 on the GPU and on the CPU: the
# CPU's figures still missing beside the GPU's; the warm starts compared again:
# "smoke,starts"), each under its own time limit, so that one
# command stays inside the 10 minutes a call has and every figure measured before a limit
# comes back. Results go to $OUT:
#   build.log, gpu.txt (the card), tests.log, gpu_ny.json + gpu_ny.log (NystroemSVC),
#   gpu.json + gpu.log (AFTER's tasks).
# LIMIT (seconds, default 570) bounds the whole script; CPU_LIMIT (seconds) each CPU-beside
# fit of AFTER (bench_gpu.py --cpu-limit: stopped and recorded as unfinished, a lower bound).
# CORES=1: only the build and issue 42's trace of the linear SVM on 1-16 threads
# (bench_linear_threads.py: where the 16 cores' time goes, and the sharing rules compared;
# about 1-2 minutes), to linear_threads.json + .log -- a second, short call of a session.
set -u
: "${OUT:?run this on the device machine, where OUT is set}"
LIMIT=${LIMIT:-570}
AFTER=${AFTER:-smoke,dtw_cells,ny_cpu,dtw_ny,dtw_ny_cpu}
T0=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
R=$PWD
S=$(mktemp -d)
B=$(mktemp -d)
python3 -m pip install -q --no-index --no-deps --no-compile --target "$S" .whl/*.whl || exit 1
export PYTHONPATH=$S
python3 -m pip install -q --no-build-isolation --no-deps --no-index --target "$B" . \
    > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
export PYTHONPATH=$B:$S PYTHONUNBUFFERED=1
echo "build done at $(( $(date +%s) - T0 )) s"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; nproc;
  python3 -c "import cupy; print('cupy', cupy.__version__)"; } > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
W=$(mktemp -d)
cd "$W" || exit 1  # outside the source tree: Python imports the built package
if [ "${CORES:-0}" = 1 ]; then
    timeout $(( $(left) - 5 )) python3 "$R/benchmarks/bench_linear_threads.py" \
        --threads 1,2,4,8,16 --out "$OUT/linear_threads.json" > "$OUT/linear_threads.log" 2>&1
    echo "bench_linear_threads: exit $? at $(( $(date +%s) - T0 )) s"
    cat "$OUT/linear_threads.log"
    exit 0
fi
# the GPU tests (the built package; the test files from the tree)
timeout 120 python3 -m pytest -q -p no:cacheprovider "$R/tests/test_gpu.py" \
    > "$OUT/tests.log" 2>&1
echo "tests: exit $? at $(( $(date +%s) - T0 )) s"; tail -3 "$OUT/tests.log"
# first issue 44's 10^7 fit on the GPU, then AFTER
timeout 330 python3 "$R/benchmarks/bench_gpu.py" --only smoke,ny --out "$OUT/gpu_ny.json" \
    > "$OUT/gpu_ny.log" 2>&1
echo "bench_gpu ny: exit $? at $(( $(date +%s) - T0 )) s"; grep -v " ms " "$OUT/gpu_ny.log" | tail -40
rest=$(( $(left) - 5 ))
if [ "$rest" -gt 60 ]; then
    # each CPU-beside fit gets at most CPU_LIMIT seconds (default: what is left, less two
    # minutes for the GPU's DTW task, shared by the two), recorded as unfinished there
    lim=${CPU_LIMIT:-$(( (rest - 120) / 2 ))}
    [ "$lim" -lt 30 ] && lim=30
    timeout "$rest" python3 "$R/benchmarks/bench_gpu.py" --only "$AFTER" \
        --cpu-limit "$lim" --out "$OUT/gpu.json" > "$OUT/gpu.log" 2>&1
    echo "bench_gpu: exit $? at $(( $(date +%s) - T0 )) s (limit $rest s)"
    grep -v " ms " "$OUT/gpu.log" | tail -25
fi
