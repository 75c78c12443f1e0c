#!/bin/sh
# best-flags.sh DB [fdtune best filters]: the best recorded configuration
# of the first matching problem, as fdtune -p flags.
db=$1; shift
./fdtune best --csv --db "$db" "$@" | sed -n 2p | grep -o '{.*}' |
  sed 's/""/"/g; s/[{}"]//g; s/:/=/g; s/,/ -p /g; s/^/-p /'
