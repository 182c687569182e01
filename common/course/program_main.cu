// The main() of every API exercise's program: the case a check asks for (runner.hpp),
// or else the demo. The student's files and the exercise's harness/cases.cu and
// harness/demo.cu are linked with it.
//
// The one translation unit that defines the device-memory accounting's wrappers
// (device_accounting.hpp), which the linker's --wrap flags send the student's calls to.
#define COURSE_PROGRAM_MAIN
#include "course/check/runner.hpp"
#include "course/program.hpp"

int main(int argc, char** argv) {
  if (auto request = course::check::parse_case_request(argc, argv)) {
    return course::check::run_case(*request, course::program::run_check_case);
  }
  return course::program::demo(argc, argv);
}
