# Run by ctest (a TEST_INCLUDE_FILES script; the settings come from pytest_settings.cmake in
# the build tree): lists pytest's tests and adds each as a CTest entry of its own. When the
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
set(number 0)
foreach(line IN LISTS listed)
  # "tests/python/test_values.py::test_batch_is_single<TAB>slow?"
  string(REGEX MATCH "^([^\t]*)\t?(.*)$" matched "${line}")
  set(nodeid "${CMAKE_MATCH_1}")
  set(labels python)
  if(CMAKE_MATCH_2 STREQUAL "slow")
    list(APPEND labels slow)
  endif()
  string(REGEX REPLACE "^.*tests/python/" "" short "${nodeid}")
  math(EXPR number "${number} + 1")
  set(name "python: ${short}")
  add_test("${name}" ${TOADBASE_CMAKE} -E env ${TOADBASE_PYTEST_ENV}
           ${TOADBASE_PYTHON_EXE} -m pytest -q -p no:cacheprovider --basetemp=${TOADBASE_PYTEST_TMP}/${number}
           "${TOADBASE_PYTEST_DIR}/${short}")
  set_tests_properties("${name}" PROPERTIES LABELS "${labels}" FIXTURES_REQUIRED python_dbs)
endforeach()
