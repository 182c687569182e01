// Empty on purpose, for editors only (see .clangd): clang 14's CUDA wrapper, which clangd
// uses to parse .cu files, includes this header, which CUDA 12 removed. Without it clangd
// stops at the wrapper and marks every standard type as unknown. nvcc never sees this folder.
