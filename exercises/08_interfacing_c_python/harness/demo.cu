// Exercise 08 - the demo (`make run-08`): the C caller's demo (c_caller.c), a saxpy and a
// clamp from C, then calls that fail - a NULL array, lo > hi, an allocation no GPU can
// satisfy - whose statuses and messages a C program prints before carrying on.
//
// Build and run:  make 08 && make run-08
#include <cstdio>

#include "c_caller.h"
#include "course/device_info.hpp"
#include "course/program.hpp"

int course::program::demo(int argc, char** argv) {
  if (!no_arguments(argc, argv)) return 2;
  course::print_device_banner();
  std::printf("\n");
  const int status = c_caller_demo();
  std::printf("\nThe same library from Python (ctypes and NumPy), with the shared library "
              "`make 08` built:\n  python3 exercises/08_interfacing_c_python/veclib.py "
              "build/make/08_interfacing_c_python.so\n");
  return status;
}
