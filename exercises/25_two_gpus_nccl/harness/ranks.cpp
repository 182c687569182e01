// Exercise 25, part 3 across processes: one MPI process (rank) per GPU, the form NCCL takes
// across nodes. MPI starts the ranks and carries NCCL's id from rank 0 to the others; each
// rank joins the communicator with your join_communicator, on its own GPU, sums a buffer
// with every other rank's (ncclAllReduce) and compares the sum with the CPU's.
//
//   mpirun -np 2 build/<preset>/exercises/25_two_gpus_nccl/ex25_ranks          (one node)
//   srun --nodes=2 --ntasks-per-node=2 --gpus-per-task=1 .../ex25_ranks        (Slurm)
//
// Built where CMake finds MPI and NCCL. Exit status: 0 every rank has the right sum, 1 one
// has not, 77 this job cannot run it (a single rank, a rank without a GPU of its own).
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "course/data.hpp"
#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/errors_nccl.hpp"
#include "two_gpus.cuh"
#include "two_gpus_nccl.hpp"
#include "workload.hpp"

namespace {

constexpr std::size_t kElements = std::size_t{1} << 24;  // 64 MiB of floats per rank
constexpr int kTimedRounds = 10;
constexpr std::uint64_t kSeed = 20191001;
constexpr int kCannotRun = 77;

struct World {
  int rank = 0;
  int ranks = 1;
  int local_rank = 0;  // among the ranks of this node
  int local_ranks = 1;
  std::string host;
};

World join_world() {
  World world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.ranks);
  // The ranks that share this node's memory are the ones that share its GPUs.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &world.local_rank);
  MPI_Comm_size(node, &world.local_ranks);
  MPI_Comm_free(&node);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  world.host = host;
  return world;
}

// The GPU this rank drives: the node's GPU of its local number. With srun's
// --gpus-per-task=1 each rank sees one GPU, its own: device 0.
int choose_device(const World& world, std::string& why_not) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    why_not = "no CUDA device visible";
    return -1;
  }
  return world.local_rank % devices;
}

// A GPU shared by two ranks of a node: NCCL refuses it, so say so first.
std::string shared_gpu(const World& world, int device) {
  char uuid[16] = {};
  if (device >= 0) {
    cudaDeviceProp properties{};
    CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    for (int i = 0; i < 16; ++i) uuid[i] = properties.uuid.bytes[i];
  }
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world.rank, MPI_INFO_NULL, &node);
  std::vector<char> all(16 * static_cast<std::size_t>(world.local_ranks));
  MPI_Allgather(uuid, 16, MPI_CHAR, all.data(), 16, MPI_CHAR, node);
  MPI_Comm_free(&node);
  for (int other = 0; other < world.local_ranks && device >= 0; ++other) {
    if (other != world.local_rank &&
        std::string(all.data() + 16 * other, 16) == std::string(uuid, 16)) {
      return "its GPU is another rank's too: start at most as many ranks per node as it has GPUs "
             "(mpirun -np 2 on two GPUs, "
             "or srun --gpus-per-task=1)";
    }
  }
  return "";
}

// Whether every rank can go on; the ranks that cannot say why.
bool every_rank_can_run(const World& world, const std::string& why_not) {
  const int cannot = why_not.empty() ? 0 : 1;
  int any = 0;
  MPI_Allreduce(&cannot, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (cannot) {
    std::fprintf(stderr, "ex25_ranks: skipped: rank %d on %s: %s\n", world.rank, world.host.c_str(),
                 why_not.c_str());
  }
  return any == 0;
}

// What the all-reduce must leave on every rank: the sum of every rank's values.
std::vector<double> expected_sum(int ranks) {
  std::vector<double> sum(kElements, 0.0);
  for (int r = 0; r < ranks; ++r) {
    const std::vector<float> values = two_gpus_nccl::make_values(
        kElements, course::derive_seed(kSeed, static_cast<std::uint64_t>(r)));
    for (std::size_t i = 0; i < kElements; ++i) sum[i] += values[i];
  }
  return sum;
}

// The communicator is the one asked for: this rank's number, the job's size, this GPU.
std::string wrong_communicator(ncclComm_t comm, const World& world, int device) {
  if (comm == nullptr) return "join_communicator returned no communicator";
  int rank = -1, count = -1, on_device = -1;
  NCCL_CHECK(ncclCommUserRank(comm, &rank));
  NCCL_CHECK(ncclCommCount(comm, &count));
  NCCL_CHECK(ncclCommCuDevice(comm, &on_device));
  if (rank != world.rank || count != world.ranks || on_device != device) {
    return "its communicator says rank " + std::to_string(rank) + " of " + std::to_string(count) +
           " on device " + std::to_string(on_device) + ", expected rank " +
           std::to_string(world.rank) + " of " + std::to_string(world.ranks) + " on device " +
           std::to_string(device);
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  two_gpus_nccl::keep_nvlink_multicast_off();
  const World world = join_world();
  std::string why_not;
  const int device = choose_device(world, why_not);
  if (world.ranks < 2) why_not = "the only rank: start two or more (mpirun -np 2)";
  if (why_not.empty()) why_not = shared_gpu(world, device);
  if (!every_rank_can_run(world, why_not)) {
    MPI_Finalize();
    return kCannotRun;
  }

  // Rank 0 makes the id; MPI gives every rank the same bytes.
  ncclUniqueId id;
  if (world.rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  const ncclComm_t comm = join_communicator(id, world.ranks, world.rank, device);
  std::string problem = wrong_communicator(comm, world, device);
  // An all-reduce needs every rank: it goes on only where all of them joined right.
  const int joined = problem.empty() ? 1 : 0;
  int all_joined = 0;
  MPI_Allreduce(&joined, &all_joined, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_joined && problem.empty()) problem = "another rank did not join right";

  double round_ms = 0.0;
  if (all_joined) {
    CUDA_CHECK(cudaSetDevice(device));
    course::DeviceBuffer<float> buffer(two_gpus_nccl::make_values(
        kElements, course::derive_seed(kSeed, static_cast<std::uint64_t>(world.rank))));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    NCCL_CHECK(
        ncclAllReduce(buffer.data(), buffer.data(), kElements, ncclFloat, ncclSum, comm, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::vector<float> got = buffer.download();
    const std::vector<double> expected = expected_sum(world.ranks);
    // Each of the ranks - 1 additions rounds once, by at most u of a sum below 10 x ranks.
    const double tolerance = 10.0 * world.ranks * world.ranks * std::ldexp(1.0, -24);
    for (std::size_t i = 0; i < kElements && problem.empty(); ++i) {
      if (std::fabs(got[i] - expected[i]) > tolerance) {
        problem = "element " + std::to_string(i) + " of the sum is " + std::to_string(got[i]) +
                  ", expected " + std::to_string(expected[i]);
      }
    }
    // The time of one all-reduce, every rank having started together.
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    MPI_Barrier(MPI_COMM_WORLD);
    CUDA_CHECK(cudaEventRecord(start, stream));
    for (int round = 0; round < kTimedRounds; ++round) {
      NCCL_CHECK(
          ncclAllReduce(buffer.data(), buffer.data(), kElements, ncclFloat, ncclSum, comm, stream));
    }
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    round_ms = ms / kTimedRounds;
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaStreamDestroy(stream));
  }
  if (comm != nullptr) NCCL_CHECK(ncclCommDestroy(comm));

  // Rank 0 prints every rank's line, in rank order.
  cudaDeviceProp properties{};
  if (device >= 0) CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  char line[512];
  std::snprintf(line, sizeof line, "rank %d of %d: %s, GPU %d (%s, PCI %02x:%02x): %s", world.rank,
                world.ranks, world.host.c_str(), device, properties.name, properties.pciBusID,
                properties.pciDeviceID, problem.empty() ? "sum right" : problem.c_str());
  std::vector<char> lines(world.rank == 0 ? sizeof line * static_cast<std::size_t>(world.ranks)
                                          : 1);
  MPI_Gather(line, sizeof line, MPI_CHAR, lines.data(), sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
  const int right = problem.empty() ? 1 : 0;
  int all_right = 0;
  MPI_Allreduce(&right, &all_right, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  double slowest_ms = 0.0;
  MPI_Reduce(&round_ms, &slowest_ms, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (world.rank == 0) {
    for (int r = 0; r < world.ranks; ++r) std::printf("%s\n", lines.data() + sizeof line * r);
    if (all_right) {
      const double bytes = static_cast<double>(kElements * sizeof(float));
      const double algbw = bytes / (slowest_ms * 1e-3) / 1e9;
      const double busbw = algbw * 2.0 * (world.ranks - 1) / world.ranks;
      std::printf("all-reduce (sum) of %.0f MiB over %d ranks: %.3f ms, algbw %.1f GB/s, busbw "
                  "%.1f GB/s\n  (algbw = bytes / time, busbw = algbw * 2 (n - 1) / n; the slowest "
                  "rank's time, mean of %d)\n",
                  bytes / (1 << 20), world.ranks, slowest_ms, algbw, busbw, kTimedRounds);
    }
    std::printf("%s\n",
                all_right ? "every rank has the right sum" : "FAILED: a rank's sum is wrong");
  }
  MPI_Finalize();
  return all_right ? 0 : 1;
}
