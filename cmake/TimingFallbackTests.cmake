# course_timing_fallback_tests(): the second path of a case that grades with Nsight
# Compute's counters where ncu can read them, and by timing otherwise.
#
#   course_timing_fallback_tests(
#     NUMBER 07
#     NAME profiling_coalescing
#     CASE reads_are_coalesced            # the check's case with the two paths
#     MUTANT left_strided                 # a known-wrong variant that case must catch
#     HINT "adjacent threads must read"   # the hint it must print then
#   )
#
# On a machine where ncu works, the exercise's own tests take the counters' path; these
# two force the timing path (COURSE_NCU=none), so that both are proved on one machine:
# NN_name.solution.timing passes the case, NN_name.mutant.<m>.timing fails it with HINT,
# and both say "graded by timing". Called after course_exercise(...), in the exercise's
# CMakeLists.txt; does nothing where the variants are not built (student mode).
function(course_timing_fallback_tests)
  cmake_parse_arguments(PARSE_ARGV 0 FB "" "NUMBER;NAME;CASE;MUTANT;HINT" "")
  foreach(required NUMBER NAME CASE MUTANT HINT)
    if(NOT DEFINED FB_${required})
      message(FATAL_ERROR "course_timing_fallback_tests: ${required} is required")
    endif()
  endforeach()
  set(id "${FB_NUMBER}_${FB_NAME}")
  set(solution ex${FB_NUMBER}_solution)
  set(mutant ex${FB_NUMBER}_mutant_${FB_MUTANT})
  if(NOT TARGET ${solution} OR NOT TARGET ${mutant})
    return()
  endif()
  add_test(NAME ${id}.solution.timing
           COMMAND check_${FB_NUMBER} --program $<TARGET_FILE:${solution}>
                   --variant solution.timing --case ${FB_CASE} --expect pass
                   --expect-hint "graded by timing")
  add_test(NAME ${id}.mutant.${FB_MUTANT}.timing
           COMMAND check_${FB_NUMBER} --program $<TARGET_FILE:${mutant}>
                   --variant mutant.${FB_MUTANT}.timing --case ${FB_CASE} --expect fail
                   --expect-hint "graded by timing" --expect-hint "${FB_HINT}")
  set_tests_properties(${id}.solution.timing PROPERTIES
    LABELS "exercise=${FB_NUMBER};variant=solution;aspect=performance;gpu")
  set_tests_properties(${id}.mutant.${FB_MUTANT}.timing PROPERTIES
    LABELS "exercise=${FB_NUMBER};variant=mutant;aspect=performance;gpu;mutant=${FB_MUTANT}")
  set_tests_properties(${id}.solution.timing ${id}.mutant.${FB_MUTANT}.timing PROPERTIES
    ENVIRONMENT "COURSE_NCU=none"
    SKIP_RETURN_CODE 77
    TIMEOUT ${COURSE_TEST_TIMEOUT}
    RESOURCE_LOCK gpu)
endfunction()
