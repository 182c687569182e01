# course_write_if_changed(FILE CONTENT): writes CONTENT into FILE only when it differs from
# what FILE holds, so that a reconfiguration leaves it untouched (its time stamp too) and
# nothing that depends on it is rebuilt or rerun for nothing.
include_guard(GLOBAL)

function(course_write_if_changed file content)
  set(previous "")
  if(EXISTS "${file}")
    file(READ "${file}" previous)
  endif()
  if(NOT previous STREQUAL content)
    file(WRITE "${file}" "${content}")
  endif()
endfunction()
