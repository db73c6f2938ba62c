# Run by ctest (a TEST_INCLUDE_FILES script; the settings come from pytest_settings.cmake in
# the build tree): lists pytest's tests and adds an entry per test file and label. When the
# listing fails (the module not built, a test file that does not import), one entry runs the
# listing so that the failure shows instead of passing with no tests.
file(REMOVE "${TOADBASE_PYTEST_LIST}")
execute_process(
  COMMAND ${TOADBASE_CMAKE} -E env ${TOADBASE_PYTEST_ENV} "TOADBASE_PYTEST_LIST=${TOADBASE_PYTEST_LIST}"
          ${TOADBASE_PYTHON_EXE} -m pytest --collect-only -q -p no:cacheprovider ${TOADBASE_PYTEST_DIR}
  RESULT_VARIABLE collect_rc OUTPUT_QUIET ERROR_QUIET)
set(listed "")
if(collect_rc EQUAL 0 AND EXISTS "${TOADBASE_PYTEST_LIST}")
  file(STRINGS "${TOADBASE_PYTEST_LIST}" listed)
endif()
if(NOT listed)
  add_test([==[python: listing the tests]==] ${TOADBASE_CMAKE} -E env ${TOADBASE_PYTEST_ENV}
           ${TOADBASE_PYTHON_EXE} -m pytest --collect-only -q -p no:cacheprovider ${TOADBASE_PYTEST_DIR})
  set_tests_properties([==[python: listing the tests]==] PROPERTIES WILL_FAIL FALSE
                       PASS_REGULAR_EXPRESSION "no test listing: never passes")
  return()
endif()
# One entry per test file and label, pytest running that file's tests in one process: a
# process per test spent most of its second (half a second in Release, more under the
# sanitizers) starting Python and pytest. pytest's own output names each test, and a failing
# one, in the entry's log.
set(files "")
foreach(line IN LISTS listed)
  # "tests/python/test_values.py::test_batch_is_single<TAB>slow?"
  string(REGEX MATCH "^([^:\t]*)::[^\t]*\t?(.*)$" matched "${line}")
  set(mark "${CMAKE_MATCH_2}")
  string(REGEX REPLACE "^.*tests/python/" "" file "${CMAKE_MATCH_1}")
  list(APPEND files "${file}")
  if(mark STREQUAL "slow")
    set(slow_in_${file} TRUE)
  else()
    set(fast_in_${file} TRUE)
  endif()
endforeach()
list(REMOVE_DUPLICATES files)
set(number 0)
foreach(file IN LISTS files)
  foreach(kind fast slow)
    if(NOT ${kind}_in_${file})
      continue()
    endif()
    math(EXPR number "${number} + 1")
    if(kind STREQUAL "slow")
      set(name "python: ${file} (slow)")
      set(marks "slow")
      set(labels python slow)
    else()
      set(name "python: ${file}")
      set(marks "not slow")
      set(labels python)
    endif()
    add_test("${name}" ${TOADBASE_CMAKE} -E env ${TOADBASE_PYTEST_ENV}
             ${TOADBASE_PYTHON_EXE} -m pytest -q -p no:cacheprovider -m "${marks}"
             --basetemp=${TOADBASE_PYTEST_TMP}/${number} "${TOADBASE_PYTEST_DIR}/${file}")
    set_tests_properties("${name}" PROPERTIES LABELS "${labels}" FIXTURES_REQUIRED python_dbs)
    # these use the build tree itself (cmake --install, cpack's make, the wheel's cmake --build):
    # one at a time, so that two makes never walk the same tree at once
    if(file MATCHES "^test_(install|wheel|capi)\\.py$")
      set_tests_properties("${name}" PROPERTIES RESOURCE_LOCK build_tree)
    endif()
  endforeach()
endforeach()
