#!/bin/sh
# unpack the carried debs, build fdtune (TARGETS, default fdtune)
for f in .device/*.deb; do dpkg -x "$f" / || exit 1; done
t0=$(date +%s)
make -j"$(nproc)" ${TARGETS:-fdtune} > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "built ${TARGETS:-fdtune} in $(( $(date +%s) - t0 )) s"
