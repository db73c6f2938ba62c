# CTest's first Python entry (cmake -DDBS=... -DTMP=... -P fresh.cmake): the databases of the
# last run go (the tests solve them again with this build's command), and each test's own
# scratch folder (pytest's --basetemp) gets its parent.
file(REMOVE_RECURSE "${DBS}" "${TMP}")
file(MAKE_DIRECTORY "${TMP}")
