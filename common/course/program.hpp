// The two halves of an exercise's program that its harness/ folder writes, and that the
// course's main() (program_main.cu) calls: every API exercise's program has one main.
//
//   harness/cases.cu   run_check_case: the cases its check asks for (runner.hpp)
//   harness/demo.cu    demo: what `make run-NN` shows a student
#pragma once

#include <cstdio>

namespace course::check {
struct CaseRequest;
class ResultWriter;
}  // namespace course::check

namespace course::program {

// Computes the case `request` asks for with the student's functions and puts what it
// found into `results`; decides nothing (the check does).
void run_check_case(const check::CaseRequest& request, check::ResultWriter& results);

// The demo, given the command line (argv[0] the program's name); its exit status.
int demo(int argc, char** argv);

// For a demo that takes no arguments: false, with the usage printed, when given some.
inline bool no_arguments(int argc, char** argv) {
  if (argc <= 1) return true;
  std::fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
  return false;
}

}  // namespace course::program
