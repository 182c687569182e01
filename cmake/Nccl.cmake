# NCCL, for the exercises that declare LIBRARIES nccl (25): found once, as the imported
# target Course::nccl. Where it is not found, those exercises build nothing and their tests
# report skipped with COURSE_NCCL_MISSING as the reason (course_exercise()).
#
# Looked for, in order: COURSE_NCCL_ROOT (a folder with include/nccl.h and lib/libnccl.so;
# -DCOURSE_NCCL_ROOT=/nonexistent hides every other place, to prove the skipped path), the
# CUDA toolkit's folders, the system's (Debian/NVIDIA's libnccl-dev), and the Python wheel
# nvidia-nccl-cu13 (site-packages/nvidia/nccl/{include,lib}) of python3.
set(COURSE_NCCL_ROOT "" CACHE PATH "where NCCL is (include/nccl.h, lib/libnccl.so); empty: look in the usual places")

set(course_nccl_hints "")
if(COURSE_NCCL_ROOT)
  list(APPEND course_nccl_hints "${COURSE_NCCL_ROOT}")
else()
  foreach(include_dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    get_filename_component(toolkit_root "${include_dir}" DIRECTORY)
    list(APPEND course_nccl_hints "${toolkit_root}")
  endforeach()
  get_filename_component(toolkit_root "${CUDAToolkit_LIBRARY_DIR}" DIRECTORY)
  list(APPEND course_nccl_hints "${toolkit_root}" /usr /usr/local)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -c "import os, nvidia.nccl as m; print(os.path.dirname(m.__file__) if m.__file__ else list(m.__path__)[0])"
      OUTPUT_VARIABLE course_nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
      RESULT_VARIABLE course_nccl_wheel_status)
    if(course_nccl_wheel_status EQUAL 0 AND IS_DIRECTORY "${course_nccl_wheel}")
      list(APPEND course_nccl_hints "${course_nccl_wheel}")
    endif()
  endif()
endif()

find_path(COURSE_NCCL_INCLUDE_DIR nccl.h HINTS ${course_nccl_hints} PATH_SUFFIXES include
          NO_DEFAULT_PATH)
# The wheel ships libnccl.so.2 only (no development link).
find_library(COURSE_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${course_nccl_hints}
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu lib/aarch64-linux-gnu NO_DEFAULT_PATH)

set(COURSE_NCCL_MISSING "")
if(COURSE_NCCL_INCLUDE_DIR AND COURSE_NCCL_LIBRARY)
  add_library(Course::nccl UNKNOWN IMPORTED)
  set_target_properties(Course::nccl PROPERTIES
    IMPORTED_LOCATION "${COURSE_NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${COURSE_NCCL_INCLUDE_DIR}")
  message(STATUS "NCCL: ${COURSE_NCCL_LIBRARY}")
else()
  set(COURSE_NCCL_MISSING
      "NCCL was not found (nccl.h and libnccl.so; install libnccl-dev, or pip's nvidia-nccl-cu13, or give -DCOURSE_NCCL_ROOT=DIR)")
  message(STATUS "NCCL: not found, the tests of the exercises that need it will report skipped")
endif()
