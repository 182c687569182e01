# Which GPUs to compile for. Included before project(), because enabling CUDA
# fixes the architectures.
#
# - An explicit -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment
#   variable wins.
# - Otherwise the GPUs nvidia-smi reports on this machine (the GPU suite compiles
#   for the device it runs on).
# - Otherwise, on a machine without a GPU, machine code for each family CUDA 13
#   supports (Turing sm_75 and newer; an sm_80 binary also runs on sm_86/sm_89) plus
#   PTX of the newest, which the driver can compile for later GPUs. Never "native":
#   without a GPU it has nothing to detect.
set(COURSE_PORTABLE_CUDA_ARCHITECTURES "75-real;80-real;90-real;100-real;120")

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(_course_detected "")
  find_program(COURSE_NVIDIA_SMI nvidia-smi)
  if(COURSE_NVIDIA_SMI)
    execute_process(
      COMMAND "${COURSE_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
      OUTPUT_VARIABLE _course_caps
      RESULT_VARIABLE _course_smi_status
      ERROR_QUIET
      TIMEOUT 20)
    if(_course_smi_status EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _course_caps "${_course_caps}")
      foreach(_cap IN LISTS _course_caps)
        string(REPLACE "." "" _arch "${_cap}")
        list(APPEND _course_detected "${_arch}")
      endforeach()
      list(REMOVE_DUPLICATES _course_detected)
    endif()
  endif()
  if(_course_detected)
    message(STATUS "CUDA architectures: ${_course_detected} (the GPUs of this machine)")
    set(CMAKE_CUDA_ARCHITECTURES "${_course_detected}" CACHE STRING "CUDA architectures to build for")
  else()
    message(STATUS "CUDA architectures: no GPU found, building for ${COURSE_PORTABLE_CUDA_ARCHITECTURES}")
    set(CMAKE_CUDA_ARCHITECTURES "${COURSE_PORTABLE_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures to build for")
  endif()
endif()
