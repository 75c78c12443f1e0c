#!/bin/sh
# style.sh: fdtune's C files in one style (.editorconfig, docs/contributing.md):
# indented with tabs, never with a run of 4 or more spaces at the start of a
# line (block comments' " * " lines aside), and no whitespace at the end of a
# line. Prints each offending line as FILE:LINE: and exits 1; exits 0 with
# "style: N files, clean". From the repository root (or DIR, the first
# argument): sh tests/style.sh [DIR]
cd "${1:-.}" || exit 2
files=$(find gen runtime db tuner tests examples -name '*.[ch]' | sort)
n=$(echo "$files" | wc -l)
bad=$(echo "$files" | xargs grep -nE '^ {4,}([^ *]|\*[^ /])|[[:space:]]+$' /dev/null)
if [ -n "$bad" ]; then
	echo "$bad" | sed 's/^\([^:]*:[0-9]*\):.*/\1: indented with spaces, or whitespace at the end/'
	echo "style: $(echo "$bad" | wc -l) lines of $n files break the style (.editorconfig)"
	exit 1
fi
echo "style: $n files, clean"
