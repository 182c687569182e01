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
TRANSPOSE_WAVEFRONTS = 1056    # exercise 22 (Nsight Compute): per 32 x 32 tile, unpadded...
TRANSPOSE_CONFLICTS = 992      # ...of which bank conflicts
PADDED_WAVEFRONTS = 64         # padded tile: no conflict
STREAM_BYTES = 128 * 2**20     # exercise 23's timed runs: 32M floats, 128 MiB each way
STREAM_CHUNKS, STREAM_COUNT = 16, 4  # its "16 chunks over 4 streams" case

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
