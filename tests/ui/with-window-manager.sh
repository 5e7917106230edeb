#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command on an X server of its own (Xvfb, 1280×720 unless $WB_WM_SCREEN says otherwise)
# with a real window manager (openbox) managing its windows: title bars, asynchronous moves and
# resizes, as on a teacher's desktop (issue 29 item 3). The tests labelled `wm` run the window
# suites through it on the xcb platform. A missing program is a failure, never a skip: .ci/setup
# installs xvfb, xauth and openbox.
#
#   tests/ui/with-window-manager.sh COMMAND [ARGS...]
set -euo pipefail
me=with-window-manager.sh
if [[ ${1-} != --inner ]]; then
    (($#)) || { echo "usage: $me COMMAND [ARGS...]" >&2; exit 2; }
    for tool in xvfb-run Xvfb xauth openbox; do
        command -v "$tool" >/dev/null ||
            { echo "$me: '$tool' is not installed (.ci/setup installs it)" >&2; exit 1; }
    done
    # -a: the first free display number (tests run in parallel); its own auth file.
    auth=$(mktemp "${TMPDIR:-/tmp}/wb-wm-auth.XXXXXX")
    trap 'rm -f "$auth"' EXIT
    status=0
    xvfb-run -a -f "$auth" -s "-screen 0 ${WB_WM_SCREEN:-1280x720x24} -nolisten tcp" \
        "$0" --inner "$@" || status=$?
    exit "$status"
fi
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/wb-wm.XXXXXX")
wm=""
cleanup() {
    if [[ -n $wm ]]; then kill "$wm" 2>/dev/null || true; wait "$wm" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
# openbox runs --startup's command once it manages the screen: the window manager is up.
openbox --sm-disable --startup "touch $work/ready" >"$work/openbox.log" 2>&1 &
wm=$!
for _ in $(seq 200); do
    [[ -e $work/ready ]] && break
    kill -0 "$wm" 2>/dev/null || break
    sleep 0.05
done
if [[ ! -e $work/ready ]]; then
    echo "$me: openbox did not start on $DISPLAY within 10 s:" >&2
    cat "$work/openbox.log" >&2
    exit 1
fi
echo "$me: openbox manages $DISPLAY (${WB_WM_SCREEN:-1280x720x24})"
export WB_TEST_WINDOW_MANAGER=openbox QT_QPA_PLATFORM=xcb
unset WAYLAND_DISPLAY
status=0
"$@" || status=$?
exit "$status"
