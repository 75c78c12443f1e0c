# fdtune.bash: bash completion for fdtune. `make install` installs it as
# PREFIX/share/bash-completion/completions/fdtune, where bash-completion
# loads it the first time `fdtune` is completed; `. completion/fdtune.bash`
# loads it by hand. It completes the commands, each command's options, the
# families after -f/--family, the values of --precision and -s/--strategy,
# files after --db, --plan, --seeds-from, --out and merge's sources, and
# directories after the -o/--out of gen, report and export. Every list
# comes from the fdtune
# being completed (the command word as typed, else fdtune on PATH):
# `fdtune help` for the commands, `fdtune COMMAND --help` for the options and
# `fdtune gen --list` for the families, so they are always that fdtune's own.
# Comma lists (`-f xyz,iso3dfd`, `--precision fp32,fp64`) complete after the
# last comma.

# _fdtune_run ARGS...: the fdtune being completed, run with ARGS; stderr
# dropped, nothing printed where it cannot run.
_fdtune_run()
{
	local f=${COMP_WORDS[0]}
	[[ $f == "~/"* ]] && f=$HOME/${f#"~/"}
	command -v -- "$f" > /dev/null 2>&1 || f=fdtune
	"$f" "$@" 2> /dev/null
}

# _fdtune_commands: the commands `fdtune help` lists, one a line.
_fdtune_commands()
{
	_fdtune_run help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}

# _fdtune_options COMMAND: the options of COMMAND's --help, one a line: every
# -x or --name on the indented lines that open with an option.
_fdtune_options()
{
	_fdtune_run "$1" --help | sed -n 's/^  *\(-.*\)/\1/p' |
		grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' | tr -d ' ,' | sort -u
}

# _fdtune_list WORDS: COMPREPLY from WORDS for the current word, after the
# last comma of a comma list.
_fdtune_list()
{
	local cur=${COMP_WORDS[COMP_CWORD]} pre=""
	[[ $cur == *,* ]] && pre=${cur%,*},
	COMPREPLY=($(compgen -P "$pre" -W "$1" -- "${cur##*,}"))
}

# _fdtune: the completion function (complete -F) of fdtune.
_fdtune()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev cmd
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(_fdtune_commands) --version --help" -- "$cur"))
		return 0
	fi
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=${COMP_WORDS[1]}
	case $prev in
	-f | --family)
		_fdtune_list "$(_fdtune_run gen --list | sed -n 's/^\([a-z0-9_]*\): .*/\1/p')"
		return 0 ;;
	--precision)
		_fdtune_list "fp32 fp64"
		return 0 ;;
	-s | --strategy)
		COMPREPLY=($(compgen -W "exhaustive random guided transfer" -- "$cur"))
		return 0 ;;
	--objective)
		COMPREPLY=($(compgen -W "time energy edp" -- "$cur"))
		return 0 ;;
	--db | --plan | --seeds-from)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	-o | --out)
		if [[ $cmd == compact ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			COMPREPLY=($(compgen -d -- "$cur"))
		fi
		return 0 ;;
	-r | --radius | -n | --size | -p | --param | --spacing | -d | --device | --devices | \
	--timeout | -j | --jobs | --arch | --max-configs | --budget | --shard | --evals | \
	--places | --recheck | --name | --run | --which | -b | --seeds | --keep | --sources | --max | \
	--energy-window)
		return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_fdtune_options "$cmd")" -- "$cur"))
	elif [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$(_fdtune_commands)" -- "$cur"))
	elif [[ $cmd == merge ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	return 0
}
complete -F _fdtune fdtune ./fdtune
