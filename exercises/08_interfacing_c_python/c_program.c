/* Exercise 08 - a whole C program using veclib: the C demo alone, without the
 * course's C++ driver. Built by hand, the way the seed describes - compile the CUDA
 * part with nvcc, the C part with cc, and link with cc plus the CUDA runtime:
 *
 *   nvcc -c veclib.cu -o veclib.o
 *   cc -c c_caller.c c_program.c
 *   cc c_program.o c_caller.o veclib.o -L/usr/local/cuda/lib64 -lcudart -lstdc++ -lm -o c_program
 *
 * (-lstdc++: veclib.o is C++ inside, and cc does not add the C++ runtime by itself.)
 */
#include "c_caller.h"

int main(void) { return c_caller_demo(); }
