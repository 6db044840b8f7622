#!/bin/sh
# A second `tessera FILE` hands its file to the running instance, which
# opens it in a new window, and exits. Runs on a private session bus; the
# windows are counted on it (GtkApplication exports each one's actions
# under /org/tessera/Tessera/window/N).
# Usage: test-single-instance.sh TESSERA FILE_A FILE_B   (TAP output)
set -u

if [ "${TES_SINGLE_INSTANCE_BUS:-}" = "" ]; then
  exec env TES_SINGLE_INSTANCE_BUS=1 dbus-run-session -- "$0" "$@"
fi

# copies, so that their caches go to a scratch folder, not the source tree
tmp=$(mktemp -d)
cp "$2" "$tmp/a.txt" && cp "$3" "$tmp/b.txt" || exit 1
tessera=$1 a=$tmp/a.txt b=$tmp/b.txt
echo "1..1"

windows () {
  gdbus introspect --session --dest org.tessera.Tessera \
    --object-path /org/tessera/Tessera/window 2>/dev/null | grep -c '^ *node [0-9]'
}

wait_for_windows () {
  i=0
  while [ "$(windows)" != "$1" ]; do
    i=$((i + 1))
    if [ $i -gt 200 ]; then
      return 1
    fi
    sleep 0.1
  done
}

"$tessera" "$a" &
first=$!
trap 'kill $first 2>/dev/null; rm -rf "$tmp"' EXIT

if ! wait_for_windows 1; then
  echo "not ok 1 - the first instance never showed its window"
  exit 1
fi

# the second launch must hand over and return, not open its own process
if ! timeout 20 "$tessera" "$b"; then
  echo "not ok 1 - the second launch did not hand its file over and exit"
  exit 1
fi

if ! wait_for_windows 2; then
  echo "not ok 1 - the running instance has $(windows) window(s), expected 2"
  exit 1
fi

if ! kill -0 $first 2>/dev/null; then
  echo "not ok 1 - the first instance is gone"
  exit 1
fi

echo "ok 1 - /tes/app/single-instance: the second file opened in a new window of the running instance"
