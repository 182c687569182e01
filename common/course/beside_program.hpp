// Files built beside the running program: the PTX of an exercise's PTX_SOURCES, which
// the build writes as <program>.<stem>.ptx (course_exercise in cmake/CourseExercise.cmake,
// ptx_path in tools/course_tools/student/nvcc.py), for the program to load at run time with the driver API.
// The program's own path comes from /proc/self/exe, so it does not depend on the folder
// the program was started from, nor on how (make run-NN, the check, compute-sanitizer).
#pragma once

#include <unistd.h>

#include <climits>
#include <string>

namespace course {

// The absolute path of the running program ("" if Linux's /proc cannot say).
inline std::string running_program_path() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path);
  if (length <= 0 || length >= static_cast<ssize_t>(sizeof path)) return "";
  return std::string(path, static_cast<std::size_t>(length));
}

// The PTX that the build compiled from the exercise's file `stem`.cu, beside this program.
inline std::string ptx_beside_program(const std::string& stem) {
  return running_program_path() + "." + stem + ".ptx";
}

}  // namespace course
