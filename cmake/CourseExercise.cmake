# course_exercise(): the one call that declares an exercise.
#
#   course_exercise(
#     NUMBER 03
#     NAME device_memory
#     STUDENT_FILES device_memory.cu     # what students edit; solutions/ mirrors them
#     DRIVER harness/demo.cu harness/cases.cu
#                                        # instructor-owned halves of the program (omit for
#                                        # whole programs): the demo and the check's cases;
#                                        # main() is the course's (common/course/program_main.cu)
#     CHECK harness/check.cpp            # the judge: no student code
#     POINTS 20                          # must equal the sum of the check's cases
#     LIBRARIES cublas openblas ...      # short names: cublas openblas nvrtc cuda curand cusparse openmp
#                                        # nccl (cmake/Nccl.cmake; without it the exercise's
#                                        # tests report skipped, with the reason)
#     MUTANTS no_bounds_check ...        # tests/mutants/NN_name/<mutant>.mutant
#     SKELETON_SCORE 0                   # what the untouched skeleton scores (default 0)
#     MEMCHECK_POINTS 2                  # graded: compute-sanitizer memcheck finds nothing
#     HOST_CASES                         # some cases need no GPU (host_only() in the check)
#     RACECHECK                          # shared memory and barriers are taught: the solution
#                                        # must be clean under compute-sanitizer racecheck,
#                                        # and the grader runs the check under it too, worth
#                                        # MEMCHECK_POINTS more (MEMCHECK_POINTS required)
#     SYNCCHECK                          # barriers in divergent code are a risk: the solution
#                                        # must be clean under compute-sanitizer synccheck,
#                                        # graded like RACECHECK
#     C_SOURCES caller.c                 # instructor-owned C files, compiled as C (the
#                                        # exercise's CMakeLists says enable_language(C))
#                                        # and linked into every variant's program
#     SHARED_LIBRARY                     # also build each variant's student files as a
#                                        # shared library; the check gets --library PATH
#                                        # and --exercise-dir (for callers such as Python)
#     PTX_SOURCES kernels.cu             # student files compiled to PTX (nvcc -ptx) beside
#                                        # the program, as <program>.kernels.ptx, instead of
#                                        # into it: the program loads them at run time
#                                        # (course/beside_program.hpp finds the file)
#     SCRIPTS veclib.py                  # scripts that ship with the exercise (a caller
#                                        # the check runs); make release refuses any other
#                                        # script or dot-file in the folder
#     JOB_CPUS 8                         # the cores its CPU baseline runs on (OpenMP,
#                                        # OpenBLAS): slurm/submit asks for that many
#     JOB_GPUS 2                         # the GPUs of one node its jobs need (default 1):
#                                        # slurm/submit asks for that many
#     ARCH_SPECIFIC 90                   # its code uses sm_90a's own instructions (wgmma,
#                                        # setmaxnreg): where the build compiles machine code
#                                        # for sm_90, this exercise's programs get sm_90a's
#                                        # instead (_course_arch_specific_architectures;
#                                        # tools/course_tools/student/nvcc.py does the same)
#   )
#
# It builds the check and one program per variant, and registers their tests:
#   instructor mode: NN_name.solution, NN_name.solution.memcheck, NN_name.skeleton,
#                    NN_name.mutant.<m> (each must fail with its hint; a valid
#                    variant, "expect: pass", must keep full marks); with a DRIVER
#                    also NN_name.skeleton.demo: the skeleton's demo says "not
#                    implemented yet" and shows no figure (tests/tools/unfinished_demo.py,
#                    common/course/demo_results.hpp); with HOST_CASES
#                    also NN_name.solution.host, NN_name.skeleton.host and
#                    NN_name.mutant.<m>.host for mutants marked "host: yes": the CPU
#                    side, proved on machines without a GPU (CI); with RACECHECK also
#                    NN_name.solution.racecheck and NN_name.mutant.<m>.racecheck for
#                    mutants marked "racecheck: yes" or "racecheck: only" (the latter
#                    without NN_name.mutant.<m>: its plain check may pass); with SYNCCHECK also
#                    NN_name.solution.synccheck
#   student mode:    NN_name.student (the student's own files, graded)
# Labels: exercise=NN, variant=..., aspect=..., gpu, points=P.
# Every check is told where compute-sanitizer is (--compute-sanitizer): the cases that
# prove what one of its tools reports (under_tool() in the check) run under it in every
# test; where it is missing they are not graded, and a self-test that needs them skips.
#
# The GPU tests share the GPU through one lock file of the machine, the one the grader
# uses too (common/course/check/gpu_lock.hpp): the cases a check declares timed() have it alone,
# everything else runs side by side. Each correctness test records its cases' times;
# the compute-sanitizer test of the same program runs after it and derives its limits
# from them (common/course/check/session.hpp).

include("${CMAKE_CURRENT_LIST_DIR}/Mutants.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/TimingFallbackTests.cmake")
# The demo test of each skeleton is a Python script (tests/tools/unfinished_demo.py).
find_package(Python3 COMPONENTS Interpreter)

set(COURSE_TEST_TIMEOUT 900 CACHE STRING "CTest timeout of one check, seconds")
set(COURSE_SANITIZER_TEST_TIMEOUT 2400 CACHE STRING "CTest timeout of one compute-sanitizer check, seconds")
set(COURSE_GPU_LOCK "/tmp/course-gpu-all.lock" CACHE STRING
    "the lock file through which every check of this machine shares its GPUs (tools/course grade uses the same)")

# A program linked with the driver API (LIBRARIES cuda) needs libcuda.so.1 to start, even
# for cases that never call the driver. On a machine without an NVIDIA driver (CI) the
# host-only tests of such programs load the toolkit's stub instead (every driver call
# would fail: the host cases make none). Sets `out` to the ENVIRONMENT entry, or "".
function(_course_driver_stub_environment out)
  set(${out} "" PARENT_SCOPE)
  find_library(COURSE_DRIVER_LIBRARY NAMES libcuda.so.1)
  if(COURSE_DRIVER_LIBRARY OR NOT EXISTS "${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so")
    return()
  endif()
  set(stub_dir "${CMAKE_BINARY_DIR}/driver-stub")
  file(MAKE_DIRECTORY "${stub_dir}")
  file(CREATE_LINK "${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so" "${stub_dir}/libcuda.so.1" SYMBOLIC)
  set(${out} "LD_LIBRARY_PATH=${stub_dir}" PARENT_SCOPE)
endfunction()

# Maps a short library name to what a target links; used by the Makefile's
# student path too (tools/student reads the same short names).
function(_course_link_libraries target)
  foreach(library IN LISTS ARGN)
    if(library STREQUAL "cublas")
      target_link_libraries(${target} PRIVATE CUDA::cublas)
    elseif(library STREQUAL "nvrtc")
      target_link_libraries(${target} PRIVATE CUDA::nvrtc)
    elseif(library STREQUAL "cuda")
      target_link_libraries(${target} PRIVATE CUDA::cuda_driver)
    elseif(library STREQUAL "curand")
      target_link_libraries(${target} PRIVATE CUDA::curand)
    elseif(library STREQUAL "cusparse")
      target_link_libraries(${target} PRIVATE CUDA::cusparse)
    elseif(library STREQUAL "openblas")
      # Found once by the top-level CMakeLists.txt, which reports its absence in one
      # message after every exercise is declared (a FATAL_ERROR here would print a stack).
      if(TARGET BLAS::BLAS)
        target_link_libraries(${target} PRIVATE BLAS::BLAS)
      else()
        get_filename_component(exercise_folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
        set_property(GLOBAL APPEND PROPERTY COURSE_NEEDS_MISSING_OPENBLAS "${exercise_folder}")
      endif()
    elseif(library STREQUAL "nccl")
      # course_exercise() builds nothing that links it where it is missing.
      target_link_libraries(${target} PRIVATE Course::nccl)
    elseif(library STREQUAL "openmp")
      find_package(OpenMP REQUIRED)
      target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
    else()
      message(FATAL_ERROR "unknown library '${library}' (known: cublas nvrtc cuda curand cusparse openblas openmp nccl)")
    endif()
  endforeach()
endfunction()

# A student file of PTX_SOURCES, compiled to PTX and written beside the program `target`
# as <program>.<stem>.ptx, where the program loads it at run time (the driver API;
# common/course/beside_program.hpp finds it, tools/course_tools/student/nvcc.py's ptx_path names it alike).
# The PTX is for the oldest architecture built: every GPU built for compiles it when the
# program loads it.
function(_course_ptx_beside_program target source)
  get_filename_component(stem "${source}" NAME_WE)
  set(ptx_target ${target}_${stem}_ptx)
  add_library(${ptx_target} OBJECT "${source}")
  list(GET CMAKE_CUDA_ARCHITECTURES 0 oldest)
  string(REGEX REPLACE "-(real|virtual)$" "" oldest "${oldest}")
  foreach(architecture IN LISTS CMAKE_CUDA_ARCHITECTURES)
    string(REGEX REPLACE "-(real|virtual)$" "" architecture "${architecture}")
    if(NOT architecture MATCHES "^[0-9]+$")
      message(FATAL_ERROR "PTX_SOURCES needs numbered CUDA architectures, not '${architecture}'")
    endif()
    if(architecture LESS oldest)
      set(oldest ${architecture})
    endif()
  endforeach()
  set_target_properties(${ptx_target} PROPERTIES CUDA_PTX_COMPILATION ON
                                                 CUDA_ARCHITECTURES ${oldest}-virtual)
  target_link_libraries(${ptx_target} PRIVATE course_common)
  target_include_directories(${ptx_target} PRIVATE "${exercise_dir}" "${exercise_dir}/harness")
  target_compile_options(${ptx_target} PRIVATE -lineinfo)
  # Programs are written to this folder (no RUNTIME_OUTPUT_DIRECTORY is set).
  set(ptx_file "${CMAKE_CURRENT_BINARY_DIR}/${target}.${stem}.ptx")
  add_custom_command(OUTPUT "${ptx_file}"
                     COMMAND "${CMAKE_COMMAND}" -E copy "$<TARGET_OBJECTS:${ptx_target}>" "${ptx_file}"
                     DEPENDS ${ptx_target} "$<TARGET_OBJECTS:${ptx_target}>"
                     VERBATIM)
  add_custom_target(${ptx_target}_beside DEPENDS "${ptx_file}")
  add_dependencies(${target} ${ptx_target}_beside)
endfunction()

# The CUDA architectures of an exercise that declares ARCH_SPECIFIC N (90): those of the
# build, CMAKE_CUDA_ARCHITECTURES, with sm_N's machine code replaced by sm_Na's, which runs
# on sm_N GPUs alone and holds the instructions of that architecture alone. "N-real" becomes
# "Na-real"; "N" (machine code and PTX) becomes "Na-real;N-virtual": the PTX stays
# compute_N's, which newer GPUs compile without those instructions; "N-virtual", "Na..." and
# every other architecture stay as they are. A program never holds machine code for both sm_N
# and sm_Na: nvcc accepts both in one fatbin (CUDA 13.0, two ELF images, no warning), and
# which of the two an sm_N GPU then loads is the driver's choice, not the course's.
function(_course_arch_specific_architectures out)
  set(result "")
  foreach(entry IN LISTS CMAKE_CUDA_ARCHITECTURES)
    set(replacement "${entry}")
    foreach(number IN LISTS ARGN)
      if(entry STREQUAL "${number}")
        set(replacement "${number}a-real;${number}-virtual")
      elseif(entry STREQUAL "${number}-real")
        set(replacement "${number}a-real")
      endif()
    endforeach()
    list(APPEND result ${replacement})
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The course's main() of every API exercise's program, compiled once for all of them.
function(_course_program_main)
  if(NOT TARGET course_program_main)
    add_library(course_program_main OBJECT "${PROJECT_SOURCE_DIR}/common/course/program_main.cu")
    target_link_libraries(course_program_main PRIVATE course_common)
  endif()
endfunction()

# The tests an exercise would have, each reporting skipped with `reason` (exit 77), for an
# exercise that needs a library this machine lacks. Reads course_exercise()'s EX_ values.
macro(_course_unavailable_tests reason)
  if(COURSE_MODE STREQUAL "student")
    set(unavailable_tests ${id}.student)
  else()
    set(unavailable_tests ${id}.solution ${id}.skeleton)
    foreach(mutant IN LISTS EX_MUTANTS)
      list(APPEND unavailable_tests ${id}.mutant.${mutant})
    endforeach()
  endif()
  foreach(test_name IN LISTS unavailable_tests)
    add_test(NAME ${test_name}
             COMMAND sh -c "echo \"SKIPPED: $1\"; exit 77" skip "${id}: ${reason}")
    set_tests_properties(${test_name} PROPERTIES
      SKIP_RETURN_CODE 77
      LABELS "exercise=${EX_NUMBER};gpu;points=${EX_POINTS}")
  endforeach()
endmacro()

function(course_exercise)
  cmake_parse_arguments(PARSE_ARGV 0 EX "HOST_CASES;SHARED_LIBRARY;RACECHECK;SYNCCHECK" "NUMBER;NAME;CHECK;POINTS;SKELETON_SCORE;MEMCHECK_POINTS;JOB_CPUS;JOB_GPUS"
                        "STUDENT_FILES;DRIVER;LIBRARIES;MUTANTS;C_SOURCES;PTX_SOURCES;SCRIPTS;ARCH_SPECIFIC")
  foreach(required NUMBER NAME STUDENT_FILES CHECK POINTS)
    if(NOT DEFINED EX_${required})
      message(FATAL_ERROR "course_exercise: ${required} is required")
    endif()
  endforeach()
  foreach(script IN LISTS EX_SCRIPTS)
    if(NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${script}")
      message(FATAL_ERROR "course_exercise: SCRIPTS names ${script}, which is not in ${CMAKE_CURRENT_SOURCE_DIR}")
    endif()
  endforeach()
  if(NOT DEFINED EX_SKELETON_SCORE)
    set(EX_SKELETON_SCORE 0)
  endif()
  # JOB_CPUS is for slurm/submit (through tools/course_tools/student/exercises.py): CMake only checks it.
  if(DEFINED EX_JOB_CPUS AND NOT EX_JOB_CPUS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "course_exercise: JOB_CPUS takes a number of cores (got '${EX_JOB_CPUS}')")
  endif()
  if(DEFINED EX_JOB_GPUS AND NOT EX_JOB_GPUS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "course_exercise: JOB_GPUS takes a number of GPUs (got '${EX_JOB_GPUS}')")
  endif()
  # ARCH_SPECIFIC: the architectures of every target that compiles the exercise's CUDA code
  # (the driver, with its probes of the code's architecture, and each variant's program).
  set(exercise_architectures "")
  foreach(number IN LISTS EX_ARCH_SPECIFIC)
    if(NOT number MATCHES "^[1-9][0-9]+$")
      message(FATAL_ERROR "course_exercise: ARCH_SPECIFIC takes architectures as numbers, such as 90 (got '${number}')")
    endif()
  endforeach()
  if(EX_ARCH_SPECIFIC)
    _course_arch_specific_architectures(exercise_architectures ${EX_ARCH_SPECIFIC})
  endif()
  # A statement that says a tool finds a mistake is backed by points under that tool: the
  # grader runs the whole check under racecheck and synccheck too, each worth
  # MEMCHECK_POINTS (tools/course_tools/student/exercises.py's sanitizer_tools).
  foreach(flag RACECHECK SYNCCHECK)
    if(EX_${flag} AND NOT EX_MEMCHECK_POINTS GREATER 0)
      message(FATAL_ERROR "course_exercise: ${flag} needs MEMCHECK_POINTS (what its graded run is worth)")
    endif()
  endforeach()
  set(id "${EX_NUMBER}_${EX_NAME}")
  # A library this machine lacks (NCCL): nothing of the exercise is built, and each of its
  # tests reports skipped with the reason, never passed.
  if("nccl" IN_LIST EX_LIBRARIES AND NOT TARGET Course::nccl)
    _course_unavailable_tests("${COURSE_NCCL_MISSING}")
    return()
  endif()
  set(exercise_dir "${CMAKE_CURRENT_SOURCE_DIR}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${id}")
  set(mutant_dir "${PROJECT_SOURCE_DIR}/tests/mutants/${id}")
  get_filename_component(folder "${exercise_dir}" NAME)
  if(NOT folder STREQUAL id)
    message(FATAL_ERROR "course_exercise: folder ${folder} does not match NUMBER_NAME ${id}")
  endif()

  # The check (judge): host code only, linked with the CUDA runtime to count devices,
  # and with the harness, built once for every check (course_check).
  set(check_target check_${EX_NUMBER})
  add_executable(${check_target} "${exercise_dir}/${EX_CHECK}")
  target_link_libraries(${check_target} PRIVATE course_check CUDA::cudart)
  target_include_directories(${check_target} PRIVATE "${exercise_dir}" "${exercise_dir}/harness")

  # The instructor-owned driver is compiled once and linked into every variant.
  if(EX_DRIVER)
    _course_program_main()
    set(driver_target ex${EX_NUMBER}_driver)
    set(driver_files "")
    foreach(file IN LISTS EX_DRIVER)
      list(APPEND driver_files "${exercise_dir}/${file}")
    endforeach()
    add_library(${driver_target} OBJECT ${driver_files})
    if(exercise_architectures)
      set_target_properties(${driver_target} PROPERTIES CUDA_ARCHITECTURES "${exercise_architectures}")
    endif()
    target_link_libraries(${driver_target} PRIVATE course_common)
    target_include_directories(${driver_target} PRIVATE "${exercise_dir}" "${exercise_dir}/harness")
    _course_link_libraries(${driver_target} ${EX_LIBRARIES})
  endif()

  # Instructor-owned C callers: compiled once, as C, and linked into every variant.
  if(EX_C_SOURCES)
    set(c_target ex${EX_NUMBER}_c_sources)
    set(c_files "")
    foreach(file IN LISTS EX_C_SOURCES)
      list(APPEND c_files "${exercise_dir}/${file}")
    endforeach()
    add_library(${c_target} OBJECT ${c_files})
    target_include_directories(${c_target} PRIVATE "${exercise_dir}" "${exercise_dir}/harness")
  endif()

  # One program per variant: the given student files + the driver (+ the C callers);
  # with SHARED_LIBRARY also lib<target>.so of the student files alone.
  function(_course_variant_program target)
    # PTX_SOURCES: compiled to PTX, not into the program (below).
    set(linked_sources "")
    set(ptx_sources "")
    foreach(source IN LISTS ARGN)
      get_filename_component(source_name "${source}" NAME)
      if(source_name IN_LIST EX_PTX_SOURCES)
        list(APPEND ptx_sources "${source}")
      else()
        list(APPEND linked_sources "${source}")
      endif()
    endforeach()
    if(EX_SHARED_LIBRARY)
      add_library(${target}_library SHARED ${ARGN})
      if(exercise_architectures)
        set_target_properties(${target}_library PROPERTIES CUDA_ARCHITECTURES "${exercise_architectures}")
      endif()
      target_link_libraries(${target}_library PRIVATE course_common)
      target_include_directories(${target}_library PRIVATE "${exercise_dir}" "${exercise_dir}/harness")
      target_compile_options(${target}_library PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
      _course_link_libraries(${target}_library ${EX_LIBRARIES})
      set_target_properties(${target}_library PROPERTIES OUTPUT_NAME ${target})
    endif()
    add_executable(${target} ${linked_sources})
    if(exercise_architectures)
      set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${exercise_architectures}")
    endif()
    foreach(source IN LISTS ptx_sources)
      _course_ptx_beside_program(${target} "${source}")
    endforeach()
    if(EX_C_SOURCES)
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:${c_target}>)
    endif()
    target_link_libraries(${target} PRIVATE course_common)
    target_include_directories(${target} PRIVATE "${exercise_dir}" "${exercise_dir}/harness")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    _course_link_libraries(${target} ${EX_LIBRARIES})
    if(EX_DRIVER)
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:${driver_target}>
                                       $<TARGET_OBJECTS:course_program_main>)
      # Student calls to cudaMalloc/cudaFree, cudaMemcpy(Async), cudaEventRecord, kernel
      # launches and stream creation and destruction go through the check's accounting
      # (common/course/check/device_accounting.hpp; tools/course_tools/student/nvcc.py says the same).
      target_link_options(${target} PRIVATE
        "LINKER:--wrap=cudaMalloc,--wrap=cudaFree,--wrap=__cudaLaunchKernel,--wrap=cudaLaunchKernel,--wrap=cudaMemcpy,--wrap=cudaMemcpyAsync,--wrap=cudaEventRecord,--wrap=cudaStreamCreate,--wrap=cudaStreamCreateWithFlags,--wrap=cudaStreamCreateWithPriority,--wrap=cudaStreamDestroy")
      # With the driver API, its module loads and unloads and the primary context's
      # retains and releases are counted too (common/course/check/driver_accounting.hpp,
      # which the driver of such an exercise includes).
      if("cuda" IN_LIST EX_LIBRARIES)
        target_link_options(${target} PRIVATE
          "LINKER:--wrap=cuModuleLoad,--wrap=cuModuleLoadData,--wrap=cuModuleLoadDataEx,--wrap=cuModuleLoadFatBinary,--wrap=cuModuleUnload,--wrap=cuDevicePrimaryCtxRetain,--wrap=cuDevicePrimaryCtxRelease_v2,--wrap=cuLaunchKernel")
      endif()
    endif()
  endfunction()

  # `variant` is solution, skeleton, mutant or student; a mutant's report and summary
  # line also carry its name (DISPLAY). PLAIN names the correctness test of the same
  # program, whose case times set a sanitizer test's limits.
  function(_course_add_check_test name program variant aspect)
    cmake_parse_arguments(T "HOST" "TIMEOUT;DISPLAY;PLAIN" "ARGS;LABELS" ${ARGN})
    if(NOT T_DISPLAY)
      set(T_DISPLAY ${variant})
    endif()
    if(NOT T_TIMEOUT)
      set(T_TIMEOUT ${COURSE_TEST_TIMEOUT})
    endif()
    set(library_args "")
    if(EX_SHARED_LIBRARY)
      set(library_args --library $<TARGET_FILE:${program}_library> --exercise-dir "${exercise_dir}")
    endif()
    set(times_args "")
    if(T_PLAIN)
      set(times_args --plain-times "${CMAKE_BINARY_DIR}/scores/${T_PLAIN}.times")
    elseif(NOT T_HOST)
      set(times_args --record-times "${CMAKE_BINARY_DIR}/scores/${name}.times")
    endif()
    add_test(NAME ${name}
             COMMAND ${check_target} --program $<TARGET_FILE:${program}> ${library_args}
                     --variant ${T_DISPLAY}
                     --declared-points ${EX_POINTS}
                     --summary "${CMAKE_BINARY_DIR}/scores/${name}.tsv"
                     --gpu-lock "${COURSE_GPU_LOCK}" ${times_args}
                     --compute-sanitizer "${COURSE_COMPUTE_SANITIZER}" ${T_ARGS})
    # CPU libraries get the threads a test is given, not every core (OpenBLAS would
    # start one spinning thread per core in each of the tests that run at once).
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "OPENBLAS_NUM_THREADS=2;OMP_NUM_THREADS=2")
    if(T_HOST)
      # The CPU side alone: runs everywhere, never skipped.
      if("cuda" IN_LIST EX_LIBRARIES)
        _course_driver_stub_environment(stub_environment)
        if(stub_environment)
          set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT "${stub_environment}")
        endif()
      endif()
      set_tests_properties(${name} PROPERTIES
        TIMEOUT ${T_TIMEOUT}
        LABELS "exercise=${EX_NUMBER};variant=${variant};aspect=${aspect};points=${EX_POINTS};${T_LABELS}")
      return()
    endif()
    set_tests_properties(${name} PROPERTIES
      SKIP_RETURN_CODE 77
      TIMEOUT ${T_TIMEOUT}
      LABELS "exercise=${EX_NUMBER};variant=${variant};aspect=${aspect};gpu;points=${EX_POINTS};${T_LABELS}")
    if(T_PLAIN)
      set_tests_properties(${name} PROPERTIES DEPENDS ${T_PLAIN})
    endif()
    # The runs under compute-sanitizer are the longest of an exercise (tens of seconds),
    # and each waits for its plain run: both start before the rest, so that a suite of
    # every exercise does not end on the sanitizer runs of the last exercises defined.
    if(NOT aspect STREQUAL "correctness" OR variant STREQUAL "solution")
      set_tests_properties(${name} PROPERTIES COST 100)
    endif()
  endfunction()

  set(student_sources "")
  set(solution_sources "")
  foreach(file IN LISTS EX_STUDENT_FILES)
    list(APPEND student_sources "${exercise_dir}/${file}")
    list(APPEND solution_sources "${solution_dir}/${file}")
  endforeach()

  if(COURSE_MODE STREQUAL "student")
    _course_variant_program(ex${EX_NUMBER}_student ${student_sources})
    _course_add_check_test(${id}.student ex${EX_NUMBER}_student student correctness)
    return()
  endif()

  # Instructor mode: the reference must pass, the skeleton must fail cleanly.
  foreach(file IN LISTS solution_sources)
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "course_exercise: missing reference solution ${file}")
    endif()
  endforeach()
  _course_variant_program(ex${EX_NUMBER}_solution ${solution_sources})
  # Its speed judgements feed the margin test (tools/course speed-margins, course.speed_margins).
  _course_add_check_test(${id}.solution ex${EX_NUMBER}_solution solution correctness
                         ARGS --expect pass
                              --speed-record "${CMAKE_BINARY_DIR}/scores/${id}.solution.speed.tsv")
  set_property(GLOBAL APPEND PROPERTY COURSE_SOLUTION_TESTS ${id}.solution)
  _course_add_check_test(${id}.solution.memcheck ex${EX_NUMBER}_solution solution memcheck
                         ARGS --expect pass --sanitizer "${COURSE_COMPUTE_SANITIZER}"
                         PLAIN ${id}.solution TIMEOUT ${COURSE_SANITIZER_TEST_TIMEOUT})
  _course_variant_program(ex${EX_NUMBER}_skeleton ${student_sources})
  _course_add_check_test(${id}.skeleton ex${EX_NUMBER}_skeleton skeleton correctness
                         ARGS --expect fail --expect-clean --expect-score ${EX_SKELETON_SCORE})
  # The skeleton's demo (make run-NN before any work): "not implemented yet", no figure.
  # Whole programs without a driver are checked on their output alone.
  if(EX_DRIVER AND Python3_FOUND)
    add_test(NAME ${id}.skeleton.demo
             COMMAND Python3::Interpreter "${PROJECT_SOURCE_DIR}/tests/tools/unfinished_demo.py"
                     --program $<TARGET_FILE:ex${EX_NUMBER}_skeleton> --exercise ${EX_NUMBER}
                     --gpu-lock "${COURSE_GPU_LOCK}")
    set_tests_properties(${id}.skeleton.demo PROPERTIES
      SKIP_RETURN_CODE 77 TIMEOUT 300
      LABELS "exercise=${EX_NUMBER};variant=skeleton;aspect=demo;gpu")
  endif()
  # RACECHECK and SYNCCHECK: the solution is clean under that compute-sanitizer tool.
  foreach(tool IN ITEMS racecheck synccheck)
    string(TOUPPER "${tool}" flag)
    if(EX_${flag})
      _course_add_check_test(${id}.solution.${tool} ex${EX_NUMBER}_solution solution ${tool}
                             ARGS --expect pass --sanitizer "${COURSE_COMPUTE_SANITIZER}"
                                  --sanitizer-tool ${tool}
                             PLAIN ${id}.solution TIMEOUT ${COURSE_SANITIZER_TEST_TIMEOUT})
    endif()
  endforeach()
  if(EX_HOST_CASES)
    _course_add_check_test(${id}.solution.host ex${EX_NUMBER}_solution solution host HOST
                           ARGS --host-only --expect pass)
    _course_add_check_test(${id}.skeleton.host ex${EX_NUMBER}_skeleton skeleton host HOST
                           ARGS --host-only --expect fail --expect-clean)
  endif()

  # Known-wrong variants: each must fail and print its hint.
  file(GLOB present_mutants RELATIVE "${mutant_dir}" "${mutant_dir}/*.mutant")
  foreach(present IN LISTS present_mutants)
    string(REGEX REPLACE "\\.mutant$" "" present "${present}")
    if(NOT present IN_LIST EX_MUTANTS)
      message(FATAL_ERROR "course_exercise(${id}): ${mutant_dir}/${present}.mutant is not listed in MUTANTS")
    endif()
  endforeach()
  list(GET EX_STUDENT_FILES 0 default_mutated_file)
  foreach(mutant IN LISTS EX_MUTANTS)
    set(mutant_file "${mutant_dir}/${mutant}.mutant")
    if(NOT EXISTS "${mutant_file}")
      message(FATAL_ERROR "course_exercise(${id}): MUTANTS lists ${mutant} but ${mutant_file} does not exist")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${mutant_file}")
    course_read_mutant("${mutant_file}" M)
    if(NOT M_FILE)
      set(M_FILE "${default_mutated_file}")
    endif()
    set(mutant_sources "")
    foreach(file IN LISTS EX_STUDENT_FILES)
      if(file STREQUAL M_FILE)
        set(generated "${CMAKE_CURRENT_BINARY_DIR}/mutants/${mutant}/${file}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${solution_dir}/${file}")
        course_apply_mutant("${solution_dir}/${file}" "${mutant_file}" "${M_SPEC}" "${generated}")
        list(APPEND mutant_sources "${generated}")
      else()
        list(APPEND mutant_sources "${solution_dir}/${file}")
      endif()
    endforeach()
    # A valid variant (expect: pass) must keep full marks; a mistake must fail with its hint.
    if(M_EXPECT STREQUAL "pass")
      set(expectations --expect pass --expect-score ${EX_POINTS})
      set(host_expectations --expect pass)
    else()
      set(expectations --expect fail --expect-hint "${M_HINT}")
      set(host_expectations --expect fail --expect-hint "${M_HINT}")
    endif()
    if(NOT M_SCORE STREQUAL "")
      list(APPEND expectations --expect-score ${M_SCORE})
    endif()
    _course_variant_program(ex${EX_NUMBER}_mutant_${mutant} ${mutant_sources})
    # Its compiler's warnings are expected (a mutant is wrong on purpose): make's build shows
    # them in the build log only (tools/variant_build.sh, tools/course quiet-run); errors still show.
    set(variant_targets ex${EX_NUMBER}_mutant_${mutant} ex${EX_NUMBER}_mutant_${mutant}_library)
    foreach(ptx_source IN LISTS EX_PTX_SOURCES)
      get_filename_component(ptx_stem "${ptx_source}" NAME_WE)
      list(APPEND variant_targets ex${EX_NUMBER}_mutant_${mutant}_${ptx_stem}_ptx)
    endforeach()
    foreach(variant_target IN LISTS variant_targets)
      if(TARGET ${variant_target})
        set_target_properties(${variant_target} PROPERTIES
          RULE_LAUNCH_COMPILE "\"${PROJECT_SOURCE_DIR}/tools/variant_build.sh\" ${variant_target}"
          RULE_LAUNCH_LINK "\"${PROJECT_SOURCE_DIR}/tools/variant_build.sh\" ${variant_target}")
      endif()
    endforeach()
    # A "racecheck: only" mutant's plain check may pass (its race seldom changes a value):
    # only its racecheck test proves anything, with the plain limits' fallback.
    set(racecheck_plain PLAIN ${id}.mutant.${mutant})
    if(M_RACECHECK_ONLY)
      set(racecheck_plain "")
    else()
      _course_add_check_test(${id}.mutant.${mutant} ex${EX_NUMBER}_mutant_${mutant} mutant correctness
                             ARGS ${expectations} LABELS "mutant=${mutant}" DISPLAY mutant.${mutant})
    endif()
    if(M_RACECHECK)
      if(NOT EX_RACECHECK)
        message(FATAL_ERROR "${mutant_file}: 'racecheck:' needs RACECHECK in course_exercise(${id})")
      endif()
      _course_add_check_test(${id}.mutant.${mutant}.racecheck ex${EX_NUMBER}_mutant_${mutant} mutant racecheck
                             ARGS --expect fail --expect-hint "compute-sanitizer racecheck found"
                                  --sanitizer "${COURSE_COMPUTE_SANITIZER}" --sanitizer-tool racecheck
                             LABELS "mutant=${mutant}" DISPLAY mutant.${mutant}.racecheck
                             ${racecheck_plain} TIMEOUT ${COURSE_SANITIZER_TEST_TIMEOUT})
    endif()
    if(M_HOST)
      if(NOT EX_HOST_CASES)
        message(FATAL_ERROR "${mutant_file}: 'host: yes' needs HOST_CASES in course_exercise(${id})")
      endif()
      _course_add_check_test(${id}.mutant.${mutant}.host ex${EX_NUMBER}_mutant_${mutant} mutant host HOST
                             ARGS --host-only ${host_expectations}
                             LABELS "mutant=${mutant}" DISPLAY mutant.${mutant})
    endif()
  endforeach()
endfunction()
