"""The numbers the diagrams show, and where each comes from.

Every number on a diagram is either a measurement the course made and quotes in a
statement (named with the exercise and the card, the course's H100: an NVIDIA H100 80GB
HBM3, an SXM card, attached to its host by PCIe), or an H100 SXM specification, or a
latency given as an approximate order of magnitude; the constants below say which. A
diagram takes its numbers from here, never writes them itself.
"""

CARD = "H100"  # the course's measuring card: NVIDIA H100 80GB HBM3 (SXM), on PCIe

# Measured by the course (the statements quote them).
PCIE_ONE_WAY_GBS = 55      # exercise 23: 128 MiB from pinned memory, one direction alone
PCIE_BOTH_WAYS_GBS = 69    # exercise 23: both directions at once, the two together
GAUSSIAN_SHARES = (("divisions", 71), ("factors", 79), ("copy kernel", 80), ("float4", 93))
#                            exercise 09's statement: its Gaussian kernels (1024 blocks of 256, 2^26 floats
#                            in and out, median of 21 runs), % of the copy ceiling of that run
COPY_CEILING_GBS = 2905    # exercise 09: device-to-device cudaMemcpy of 2^26 floats,
#                            (bytes read + bytes written) / time
HISTOGRAM_SPEEDUP = "241-283"  # exercise 14's check (its bar's reference, tests/speed_bars.md): every value in
#                                one bin, global-atomic time / privatised time, H100
APP_INIT_MS = 222           # exercise 17's demo, H100, CUDA 13.0: CUDA's initialisation, once per process
APP_NVRTC_MS = 74.7         # ...its whole SAXPY application (16M floats, pageable) through NVRTC,
APP_NVRTC_COMPILE_MS = 56.3  # of which NVRTC's compile
APP_NVCC_MS = 22.7          # ...the same application with the kernel built by nvcc,
APP_KERNEL_MS = 0.10        # of which the kernel
SPMV_ENTRIES_PER_THREAD = 8  # exercise 20: kEntriesPerThread of the balanced product
PIPELINE_STAGES = 4  # exercise 26: kPipelineStages, the stages of step 3's cp.async pipeline
SPMV_POWER_LAW_SCALAR = 133  # exercise 20's statement, measured on an H200 (not the H100): power-law rows,
SPMV_POWER_LAW_BALANCED = 1.14  # time over cuSPARSE's: a thread per row, then 8 non-zeros a thread
TRANSPOSE_WAVEFRONTS = 1056    # exercise 22 (Nsight Compute): per 32 x 32 tile, unpadded...
TRANSPOSE_CONFLICTS = 992      # ...of which bank conflicts
PADDED_WAVEFRONTS = 64         # padded tile: no conflict
STREAM_BYTES = 128 * 2**20     # exercise 23's timed runs: 32M floats, 128 MiB each way
STREAM_CHUNKS, STREAM_COUNT = 16, 4  # its "16 chunks over 4 streams" case
STREAM_SPEEDUP_MEASURED = "2.34-2.43"  # exercise 23's check (tests/speed_bars.md): that case's
#                                        pipeline, serial time / pipeline time, H100
STREAM_SERIAL_OVER_BOUND_MEASURED = "2.78"  # exercise 23's figure (slides/figures/23_stream_overlap.png,
#                                             make report, H100): serial time / max(copy time, kernel)
SGEMM_SHARE_OF_CUBLAS = (11, 18, 33, 42, 53, 84)  # exercise 21, steps 1-6, % of cuBLAS's GFLOP/s at
#                                                   4096^3, FP32, H100 (make report: figures/21_sgemm_steps.png)
SGEMM_CUBLAS_TFLOPS = 51.4                        # cuBLAS SGEMM in that run
# Exercise 25, measured on two H200s linked by 18 NVLinks (its statement): 256 MiB from device
# 0 to device 1, peer to peer and staged through pinned host memory; the all-reduce's busbw.
PEER_COPY_GBS, STAGED_COPY_GBS, ALL_REDUCE_BUSBW_GBS = 389, 27.6, "278-288"

# H100 SXM specifications.
H100_SMS = 132
H100_SUBPARTITIONS = 4           # per SM, each with a warp scheduler and 32 FP32 lanes
H100_FP32_LANES_PER_PARTITION = 32
H100_REGISTERS = 65536           # 32-bit registers per SM
H100_THREADS_PER_SM = 2048       # 64 warps
H100_L1_SHARED_KB = 256          # combined L1 data cache and shared memory, per SM
H100_SHARED_MAX_KB = 228         # of which at most this is shared memory
H100_L2_MB = 50
H100_HBM_GB = 80
H100_HBM_TBS = 3.35
BANKS, BANK_BYTES = 32, 4
SECTOR_BYTES = 32
WARP = 32

# Latencies: orders of magnitude in SM clock cycles, approximate (they vary with the access
# and the clock; the diagram says "about").
LATENCY = {"registers": "~1", "shared": "~30", "l2": "~200-300", "hbm": "~500-800"}

# H100 SXM specifications drawn by Part I's whole-chip diagram.
H100_GPCS = 8              # graphics processing clusters, each a group of SMs
GH100_FULL_SMS = 144       # the full GH100 die; the SXM card enables 132 of them
H100_HBM_STACKS = 5        # HBM3 stacks in use on the 80 GB card
