# Known-wrong variants ("mutants") are written as edits of a reference solution, so
# they stay in step with it and never duplicate it. A .mutant file holds:
#
#   # comment lines: the classic mistake, in words
#   hint: text the check must print when it catches this mistake
#   expect: pass             (optional: a VALID variant instead, another right way to
#                             write the solution, such as another spelling of an
#                             option: the check must give it full marks, proving that
#                             it judges results, not spellings; no hint then)
#   file: name.cu            (optional: which student file; default the first)
#   expect-score: 0          (optional: the exact score the check must give)
#   host: yes                (optional: a CPU-side mistake, caught by the cases that
#                             need no GPU too, so it is also proved without a GPU)
#   racecheck: yes           (optional: a shared-memory race that compute-sanitizer
#                             racecheck must also report)
#   racecheck: only          (optional: a race that racecheck must report, whose plain
#                             check may pass: the threads rarely interleave so that a
#                             value comes out wrong. Only its racecheck test is
#                             registered; the hint is what a failing plain check prints)
#   @@ find
#   <lines copied exactly from the solution>
#   @@ replace
#   <the lines that replace them>
#   @@ end
#
# Several find/replace blocks may follow each other. Each find text must occur
# exactly once in the solution, so a mutant that no longer applies stops the
# configuration instead of silently testing nothing. Hints must not contain ';'.

include("${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake")

# course_read_mutant(<mutant file> <prefix>) sets <prefix>_HINT, <prefix>_EXPECT (fail,
# or pass for a valid variant), <prefix>_FILE, <prefix>_SCORE (or empty), <prefix>_HOST,
# <prefix>_RACECHECK (TRUE for "yes" and "only"), <prefix>_RACECHECK_ONLY and
# <prefix>_SPEC (the whole text).
function(course_read_mutant mutant_file prefix)
  file(READ "${mutant_file}" spec)
  set(${prefix}_EXPECT fail PARENT_SCOPE)
  set(${prefix}_HINT "" PARENT_SCOPE)
  if(spec MATCHES "(^|\n)expect: ([^\n]*)")
    if(NOT CMAKE_MATCH_2 STREQUAL "pass")
      message(FATAL_ERROR "${mutant_file}: 'expect:' takes 'pass' (a valid variant) only")
    endif()
    if(spec MATCHES "(^|\n)(hint|expect-score): ")
      message(FATAL_ERROR "${mutant_file}: a valid variant (expect: pass) has no hint and no expect-score")
    endif()
    set(${prefix}_EXPECT pass PARENT_SCOPE)
  elseif(NOT spec MATCHES "(^|\n)hint: ([^\n]+)")
    message(FATAL_ERROR "${mutant_file}: no 'hint:' line")
  else()
    set(${prefix}_HINT "${CMAKE_MATCH_2}" PARENT_SCOPE)
    if(CMAKE_MATCH_2 MATCHES ";")
      message(FATAL_ERROR "${mutant_file}: the hint must not contain ';'")
    endif()
  endif()
  set(${prefix}_FILE "" PARENT_SCOPE)
  if(spec MATCHES "(^|\n)file: ([^\n]+)")
    set(${prefix}_FILE "${CMAKE_MATCH_2}" PARENT_SCOPE)
  endif()
  set(${prefix}_SCORE "" PARENT_SCOPE)
  if(spec MATCHES "(^|\n)expect-score: ([0-9]+)")
    set(${prefix}_SCORE "${CMAKE_MATCH_2}" PARENT_SCOPE)
  endif()
  set(${prefix}_HOST FALSE PARENT_SCOPE)
  if(spec MATCHES "(^|\n)host: yes")
    set(${prefix}_HOST TRUE PARENT_SCOPE)
  endif()
  set(${prefix}_RACECHECK FALSE PARENT_SCOPE)
  set(${prefix}_RACECHECK_ONLY FALSE PARENT_SCOPE)
  if(spec MATCHES "(^|\n)racecheck: ([^\n]*)")
    if(CMAKE_MATCH_2 STREQUAL "yes")
      set(${prefix}_RACECHECK TRUE PARENT_SCOPE)
    elseif(CMAKE_MATCH_2 STREQUAL "only")
      set(${prefix}_RACECHECK TRUE PARENT_SCOPE)
      set(${prefix}_RACECHECK_ONLY TRUE PARENT_SCOPE)
    else()
      message(FATAL_ERROR "${mutant_file}: 'racecheck:' takes yes or only, not '${CMAKE_MATCH_2}'")
    endif()
  endif()
  set(${prefix}_SPEC "${spec}" PARENT_SCOPE)
endfunction()

# course_apply_mutant(<solution file> <mutant file> <spec text> <output file>)
function(course_apply_mutant solution_file mutant_file spec output_file)
  file(READ "${solution_file}" source)
  set(rest "${spec}")
  set(blocks 0)
  while(TRUE)
    string(FIND "${rest}" "@@ find\n" find_at)
    if(find_at EQUAL -1)
      break()
    endif()
    string(FIND "${rest}" "@@ replace\n" replace_at)
    string(FIND "${rest}" "@@ end" end_at)
    if(replace_at LESS find_at OR end_at LESS replace_at)
      message(FATAL_ERROR "${mutant_file}: expected '@@ find', '@@ replace', '@@ end' in this order")
    endif()
    math(EXPR find_begin "${find_at} + 8")
    math(EXPR find_length "${replace_at} - ${find_begin}")
    math(EXPR replace_begin "${replace_at} + 11")
    math(EXPR replace_length "${end_at} - ${replace_begin}")
    string(SUBSTRING "${rest}" ${find_begin} ${find_length} find_text)
    string(SUBSTRING "${rest}" ${replace_begin} ${replace_length} replace_text)
    string(FIND "${source}" "${find_text}" first)
    string(FIND "${source}" "${find_text}" last REVERSE)
    if(first EQUAL -1)
      message(FATAL_ERROR "${mutant_file}: this text is not in ${solution_file}:\n${find_text}")
    endif()
    if(NOT first EQUAL last)
      message(FATAL_ERROR "${mutant_file}: this text occurs more than once in ${solution_file}:\n${find_text}")
    endif()
    string(REPLACE "${find_text}" "${replace_text}" source "${source}")
    math(EXPR after_end "${end_at} + 6")
    string(SUBSTRING "${rest}" ${after_end} -1 rest)
    math(EXPR blocks "${blocks} + 1")
  endwhile()
  if(blocks EQUAL 0)
    message(FATAL_ERROR "${mutant_file}: no '@@ find' block")
  endif()
  # Written only on change, so that reconfiguring does not rebuild every mutant.
  course_write_if_changed("${output_file}" "${source}")
endfunction()
