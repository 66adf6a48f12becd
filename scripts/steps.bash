# Steps with their times, for scripts/test and scripts/nightly (sourced, not run).
#
#   step NAME COMMAND...       runs it now; a failure ends the run
#   begin NAME COMMAND...      starts it in the background, its output kept in a log
#   await                      waits for every step begun, prints each one's output in the
#                              order they began, and ends the run if any failed
#   summary                    the table of steps, their seconds and outcomes (call it at exit)
#
# Steps run side by side where they wait more than they compute (a Slurm cluster starting,
# a browser, package installs): on two cores, two CPU-bound steps side by side take as long
# as one after the other, and timing-sensitive ones (the chaos suite's stop limits) would
# only get flaky.

step_rows=()
step_failed=""
step_started=$SECONDS
step_logs=$(mktemp -d "${TMPDIR:-/tmp}/gridlock-steps.XXXXXX")
background_names=()
background_pids=()

record_step() {  # NAME SECONDS STATUS
    local outcome=ok
    [[ $3 -eq 0 ]] || { outcome="FAILED (exit $3)"; step_failed+=" $1"; }
    step_rows+=("$(printf '%-20s %6d s   %s' "$1" "$2" "$outcome")")
}

summary() {
    ((${#step_rows[@]})) || return 0
    echo
    echo "steps (seconds of wall time; side-by-side steps overlap):"
    printf '  %s\n' "${step_rows[@]}"
    printf '  %-20s %6d s\n' "in all" $((SECONDS - step_started))
    if [[ -n $step_failed ]]; then echo "failed:$step_failed"; fi
    step_rows=()
    rm -rf "$step_logs"
}

step() {
    local name=$1 start=$SECONDS status=0
    shift
    echo "== $name: $*"
    "$@" || status=$?
    record_step "$name" $((SECONDS - start)) $status
    if [[ $status -ne 0 ]]; then stop_background; summary; exit "$status"; fi
}

# A step failed while others ran in the background: they are stopped, with what they started
# (a Slurm job, a browser, a batch), rather than left running after the run has ended.
stop_background() {
    local pid
    # The scripts run under set -e: a step that has already ended (kill fails) or one ended
    # here (wait returns 143) must not end this one before the failing step's status is given.
    for pid in "${background_pids[@]}"; do stop_tree "$pid"; done
    for pid in "${background_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    background_names=()
    background_pids=()
}

stop_tree() {  # PID: its descendants first, then itself
    local child
    for child in $(pgrep -P "$1" || true); do stop_tree "$child"; done
    kill -TERM "$1" 2>/dev/null || true
}

begin() {
    local name=$1
    shift
    echo "== $name (in the background): $*"
    local log=$step_logs/${#background_names[@]}
    # The step times itself: waiting on steps in order would count a quick one's wait too.
    ( started=$SECONDS; status=0; "$@" || status=$?; echo $((SECONDS - started)) > "$log.seconds"; exit $status ) \
        > "$log.log" 2>&1 &
    background_pids+=($!)
    background_names+=("$name")
}

await() {
    local index status failed=0
    for index in "${!background_pids[@]}"; do
        status=0
        wait "${background_pids[$index]}" || status=$?
        echo "== ${background_names[$index]}: its output"
        cat "$step_logs/$index.log"
        record_step "${background_names[$index]}" "$(cat "$step_logs/$index.seconds" 2>/dev/null || echo 0)" $status
        [[ $status -eq 0 ]] || failed=$status
    done
    background_names=()
    background_pids=()
    if [[ $failed -ne 0 ]]; then summary; exit "$failed"; fi
}
