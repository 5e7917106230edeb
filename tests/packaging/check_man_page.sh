#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The hand-written man page must not drift from the program: every command and option that
# `CLI --help` lists must appear in MANPAGE (roff source).
#   tests/packaging/check_man_page.sh CLI MANPAGE
set -uo pipefail
cli=$1 man=$2
help=$("$cli" --help) || { echo "check_man_page: $cli --help failed" >&2; exit 1; }
missing=0
# Options: --name (Qt's own --help-all is left out: it is not ours to document).
for opt in $(grep -oE -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
    [[ $opt == --help-all ]] && continue
    if ! grep -qF -- "\\-\\-${opt#--}" "$man"; then
        echo "missing option: $opt"
        missing=$((missing + 1))
    fi
done
# Commands: the indented first words of the "Commands:" block.
for cmd in $(sed -n '/^Commands:/,/^$/p' <<<"$help" | sed -n 's/^  \([a-z][a-z-]*\).*/\1/p'); do
    if ! grep -qE "^\.(B|BI|TP) *${cmd}( |$)|^\.B[IR]? ${cmd}\b" "$man"; then
        echo "missing command: $cmd"
        missing=$((missing + 1))
    fi
done
if ((missing)); then
    echo "check_man_page: $missing item(s) of '$cli --help' are not in $man"
    exit 1
fi
echo "check_man_page: every command and option of '$cli --help' is in $man"
