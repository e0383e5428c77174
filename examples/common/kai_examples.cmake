# Shared by the examples' CMakeLists.txt: checks for kai::kai and defines kai_example_add_test().
# The examples are built from kai's top-level CMake build (add_subdirectory(examples/<name>)) or
# from any build that already has the target kai::kai (add_subdirectory(<kai>) or
# find_package(kai)): the adoption headers (kai_cpu.h, kai_select.h, kai_threading.h) are
# header-only, so kai::kai is all they link.
if(NOT TARGET kai::kai)
  message(FATAL_ERROR "kai examples: the target kai::kai is missing; add kai first "
    "(add_subdirectory(<kai source>) or find_package(kai))")
endif()
find_package(Threads REQUIRED)
get_filename_component(KAI_EXAMPLES_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

# kai_example_add_test(<label> <script> <target>): runs the example's test script (as Bazel's
# sh_test does) with the program's path; $KAI_RUN runs AArch64 programs under the emulator.
function(kai_example_add_test label script target)
  if(NOT (BUILD_TESTING OR KAI_BUILD_TESTS))
    return()
  endif()
  string(REPLACE ";" " " _run "${CMAKE_CROSSCOMPILING_EMULATOR}")
  add_test(NAME "${label}" COMMAND sh "${KAI_EXAMPLES_ROOT}/${script}" $<TARGET_FILE:${target}>)
  set_tests_properties("${label}" PROPERTIES WORKING_DIRECTORY "${KAI_EXAMPLES_ROOT}" ENVIRONMENT "KAI_RUN=${_run}")
endfunction()
