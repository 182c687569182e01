# Which GPUs to compile for. Included before project(), because enabling CUDA
# fixes the architectures.
#
# - An explicit -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment
#   variable wins.
# - Otherwise the GPUs nvidia-smi reports on this machine (the GPU suite compiles
#   for the device it runs on).
# - Otherwise, on a machine without a GPU, sm_75 machine code plus its PTX, as the
#   students' path compiles (tools/course_tools/student/nvcc.py): CUDA 13's oldest GPUs run the machine code,
#   newer ones compile the PTX when the program loads. One architecture builds five times
#   faster than one per family; COURSE_PORTABLE_CUDA_ARCHITECTURES (make CUDA_ARCHS=...)
#   names the set for a build that must run at full speed everywhere. Never "native":
#   without a GPU it has nothing to detect.
set(COURSE_NO_GPU_CUDA_ARCHITECTURES "75")
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
    message(NOTICE "CUDA architectures: ${_course_detected} (the GPUs of this machine)")
    set(CMAKE_CUDA_ARCHITECTURES "${_course_detected}" CACHE STRING "CUDA architectures to build for")
  else()
    message(NOTICE "CUDA architectures: no GPU found, building for sm_75 with PTX (the GPUs of every "
                   "family run it); -DCMAKE_CUDA_ARCHITECTURES=\"${COURSE_PORTABLE_CUDA_ARCHITECTURES}\" "
                   "builds machine code for each")
    set(CMAKE_CUDA_ARCHITECTURES "${COURSE_NO_GPU_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures to build for")
  endif()
endif()
