# course_write_compiled_sources(FILE): lists what this build compiles, for the slides.
#
# Code on a slide is cut from a source between region markers (tools/course slides), and only
# from a file that the build compiles, so that every line shown is built and tested. This
# writes, at configure time, one record per line (fields separated by a tab):
#   mode     instructor | student        (COURSE_MODE: a student build has no solutions)
#   only     the COURSE_ONLY expression   (empty: every exercise is built)
#   target   a target's name, then for that target:
#   source   an absolute path it compiles
#   include  an absolute folder its quoted #include "..." lines are looked up in
# Headers are not listed: tools/course slides follows the #include lines of the sources.
# Only configure-time properties are read (no generator expression is evaluated), which
# CMake 3.25 and 4.x treat alike, with every generator and in every preset.

include("${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake")

# Every target defined in `directory` and below it.
function(_course_targets_below directory out)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    _course_targets_below("${subdirectory}" below)
    list(APPEND targets ${below})
  endforeach()
  set(${out} "${targets}" PARENT_SCOPE)
endfunction()

# The include folders that the linked `libraries` export to what links them, and those of
# the targets they link in turn (course_common gives common/ to every program). Imported
# targets (CUDA::*) lie outside the repository: skipped.
function(_course_linked_includes libraries out)
  set(folders "")
  foreach(library IN LISTS libraries)
    if(NOT TARGET "${library}")
      continue()
    endif()
    get_target_property(imported ${library} IMPORTED)
    if(imported)
      continue()
    endif()
    get_target_property(exported ${library} INTERFACE_INCLUDE_DIRECTORIES)
    get_target_property(linked ${library} INTERFACE_LINK_LIBRARIES)
    if(exported)
      list(APPEND folders ${exported})
    endif()
    if(linked)
      _course_linked_includes("${linked}" more)
      list(APPEND folders ${more})
    endif()
  endforeach()
  set(${out} "${folders}" PARENT_SCOPE)
endfunction()

function(course_write_compiled_sources file)
  _course_targets_below("${PROJECT_SOURCE_DIR}" targets)
  set(records "mode\t${COURSE_MODE}\nonly\t${COURSE_ONLY}\n")
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(source_dir ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    get_target_property(includes ${target} INCLUDE_DIRECTORIES)
    get_target_property(linked ${target} LINK_LIBRARIES)
    string(APPEND records "target\t${target}\n")
    foreach(source IN LISTS sources)
      # $<TARGET_OBJECTS:...> names another target, listed on its own.
      if(source MATCHES "^\\$<")
        continue()
      endif()
      get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${source_dir}")
      string(APPEND records "source\t${source}\n")
    endforeach()
    if(NOT includes)
      set(includes "")
    endif()
    if(linked)
      _course_linked_includes("${linked}" exported)
      list(APPEND includes ${exported})
    endif()
    list(REMOVE_DUPLICATES includes)
    foreach(folder IN LISTS includes)
      if(NOT folder MATCHES "^\\$<")
        string(APPEND records "include\t${folder}\n")
      endif()
    endforeach()
  endforeach()
  course_write_if_changed("${file}" "${records}")
endfunction()
