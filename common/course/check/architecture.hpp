// Why a case that needs a newer GPU architecture cannot be graded here (exercise 26's
// step 3 needs sm_80), for a person: the decision is course/architecture.hpp's. Such a case
// is not graded (CaseContext::not_graded: SKIP with this reason, out of the score and of
// its maximum), never given zero, never passed.
#pragma once

#include <optional>

#include "course/architecture.hpp"
#include "course/check/message.hpp"

namespace course::check {

// Why `what` (a step, for a person) cannot run here, or nothing when it can.
inline std::optional<Message> why_not_runnable(const Message& what, int needed,
                                               const Architectures& found) {
  switch (architecture_gap(needed, found)) {
    case ArchitectureGap::device_too_old:
      return Message{"{} needs sm_{} or newer; this GPU is sm_{}",
                     "{} demande sm_{} ou plus récent ; ce GPU est sm_{}"}
          .with(what, needed, found.device);
    case ArchitectureGap::code_too_old:
      return Message{"{} needs sm_{} or newer; this build has no sm_{} code (this GPU, sm_{}, "
                     "runs code compiled for compute_{}): build for this GPU (make does; with "
                     "CMake, -DCMAKE_CUDA_ARCHITECTURES={})",
                     "{} demande sm_{} ou plus récent ; ce programme n'a pas de code sm_{} (ce "
                     "GPU, sm_{}, exécute du code compilé pour compute_{}) : compilez pour ce "
                     "GPU (make le fait ; avec CMake, -DCMAKE_CUDA_ARCHITECTURES={})"}
          .with(what, needed, needed, found.device, found.code, found.device);
    case ArchitectureGap::none: break;
  }
  return std::nullopt;
}

}  // namespace course::check
