# Bash completion of toadbase: its commands, games and options, read from the command's own
# help (`toadbase help COMMAND...`), so a new command, game or option completes with no change
# here. Installed by `cmake --install` into share/bash-completion/completions/toadbase.
_toadbase() {
  local cur=${COMP_WORDS[COMP_CWORD]} path=() w help i
  # the commands named so far: the words before the first option
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    [[ $w == -* ]] && break
    path+=("$w")
  done
  help=$("${COMP_WORDS[0]}" help "${path[@]}" 2>/dev/null) || return 0
  if [[ $cur == -* ]]; then
    # "  -h,--help   ..." and "  --db TEXT REQUIRED   ...": every name of every option
    COMPREPLY=($(compgen -W "$(sed -n 's/^  \(-[^ ]*\).*/\1/p' <<<"$help" | tr ',' ' ')" -- "$cur"))
  elif ((i == COMP_CWORD)) && [[ $help == *$'\nSubcommands:'* ]]; then
    # "  solve     ..." lines of the Subcommands section
    COMPREPLY=($(compgen -W "$(sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$help")" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))  # a database directory, a roll file, a position
  fi
}
complete -o filenames -F _toadbase toadbase
