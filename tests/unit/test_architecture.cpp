// Unit tests of course/architecture.hpp and course/check/architecture.hpp: when a case that
// needs a newer architecture (exercise 26's step 3, sm_80) is skipped, with which reason,
// and when it runs. This is the skip path of exercise 26's check, proved without a GPU: a
// decision that looked at the GPU alone fails an_sm90_gpu_running_sm75_ptx_skips_for_its_build,
// one that looked at the code alone fails an_older_gpu_is_named_even_when_the_code_is_newer,
// and one that skipped what can run fails the three after it.
//
// Then the same for step 4, which needs sm_90a's own instructions (wgmma, setmaxnreg): an
// sm_90 GPU and code built for sm_90a. A decision that asked for "sm_90 or newer" fails
// a_newer_gpu_skips_step_4 (no newer GPU has them); one that read the code's architecture
// (compute_90 for a build for sm_90 and for sm_90a alike) instead of its specific features
// fails an_sm90_build_without_sm90a_skips_step_4_for_its_build; one that skipped what can
// run fails sm90a_code_on_an_h100_runs_step_4.
#include "course/architecture.hpp"
#include "course/check/architecture.hpp"
#include "unit_test.hpp"

using course::ArchitectureGap;
using course::Architectures;
using course::check::Message;
using course::check::why_not_runnable;

namespace {

const Message kStep3{"step 3", "l'étape 3"};
constexpr int kSm80 = 80;
const Message kStep4{"step 4", "l'étape 4"};
constexpr int kSm90 = 90;

}  // namespace

UNIT_TEST(an_sm75_gpu_skips_with_its_architecture_named) {
  const auto reason = why_not_runnable(kStep3, kSm80, Architectures{75, 75});
  EXPECT_TRUE(reason.has_value());
  if (!reason) return;
  EXPECT_EQ(reason->english(), std::string("step 3 needs sm_80 or newer; this GPU is sm_75"));
  EXPECT_CONTAINS(reason->french(), "l'étape 3 demande sm_80 ou plus récent");
}

UNIT_TEST(an_older_gpu_is_named_even_when_the_code_is_newer) {
  const auto reason = why_not_runnable(kStep3, kSm80, Architectures{75, 90});
  EXPECT_TRUE(reason.has_value());
  if (reason) EXPECT_CONTAINS(reason->english(), "this GPU is sm_75");
}

UNIT_TEST(an_sm90_gpu_running_sm75_ptx_skips_for_its_build) {
  const auto reason = why_not_runnable(kStep3, kSm80, Architectures{90, 75});
  EXPECT_TRUE(reason.has_value());
  if (!reason) return;
  EXPECT_CONTAINS(reason->english(), "this build has no sm_80 code");
  EXPECT_CONTAINS(reason->english(), "compute_75");
  EXPECT_CONTAINS(reason->english(), "-DCMAKE_CUDA_ARCHITECTURES=90");
}

UNIT_TEST(the_gap_names_the_gpu_first_then_the_code) {
  EXPECT_TRUE(course::architecture_gap(kSm80, Architectures{75, 90}) ==
              ArchitectureGap::device_too_old);
  EXPECT_TRUE(course::architecture_gap(kSm80, Architectures{90, 75}) ==
              ArchitectureGap::code_too_old);
  EXPECT_TRUE(course::architecture_gap(kSm80, Architectures{80, 80}) == ArchitectureGap::none);
}

UNIT_TEST(sm80_code_on_an_sm80_gpu_runs) {
  EXPECT_TRUE(!why_not_runnable(kStep3, kSm80, Architectures{80, 80}).has_value());
}

UNIT_TEST(sm90_code_on_an_h200_runs) {
  EXPECT_TRUE(!why_not_runnable(kStep3, kSm80, Architectures{90, 90}).has_value());
}

UNIT_TEST(sm80_code_on_an_sm90_gpu_runs) {
  EXPECT_TRUE(!why_not_runnable(kStep3, kSm80, Architectures{90, 80}).has_value());
}

UNIT_TEST(an_sm75_gpu_skips_step_4_with_its_architecture_named) {
  const auto reason =
      course::check::why_not_runnable_specific(kStep4, kSm90, Architectures{75, 75});
  EXPECT_TRUE(reason.has_value());
  if (!reason) return;
  EXPECT_EQ(reason->english(),
            std::string("step 4 needs an sm_90 GPU and a build for sm_90a (instructions of that "
                        "architecture alone); this GPU is sm_75"));
  EXPECT_CONTAINS(reason->french(),
                  "l'étape 4 demande un GPU sm_90 et un programme compilé pour sm_90a");
}

UNIT_TEST(a_newer_gpu_skips_step_4) {
  // A Blackwell GPU runs a build for sm_90a from its compute_90 PTX: no wgmma there.
  const auto reason =
      course::check::why_not_runnable_specific(kStep4, kSm90, Architectures{100, 90, 0});
  EXPECT_TRUE(reason.has_value());
  if (reason) EXPECT_CONTAINS(reason->english(), "this GPU is sm_100");
  EXPECT_TRUE(course::specific_architecture_gap(kSm90, Architectures{100, 90, 90}) ==
              ArchitectureGap::device_other);
}

UNIT_TEST(an_sm90_build_without_sm90a_skips_step_4_for_its_build) {
  // A build for sm_90 (or compute_75 PTX) on an H100: the right GPU, code without wgmma.
  for (const Architectures found : {Architectures{90, 90, 0}, Architectures{90, 75, 0}}) {
    const auto reason = course::check::why_not_runnable_specific(kStep4, kSm90, found);
    EXPECT_TRUE(reason.has_value());
    if (!reason) continue;
    EXPECT_CONTAINS(reason->english(), "this build has no sm_90a code");
    EXPECT_CONTAINS(reason->english(), "-DCMAKE_CUDA_ARCHITECTURES=90");
    EXPECT_CONTAINS(reason->french(), "ce programme n'a pas de code sm_90a");
  }
  EXPECT_TRUE(course::specific_architecture_gap(kSm90, Architectures{90, 90, 0}) ==
              ArchitectureGap::code_not_specific);
}

UNIT_TEST(sm90a_code_on_an_h100_runs_step_4) {
  EXPECT_TRUE(!course::check::why_not_runnable_specific(kStep4, kSm90, Architectures{90, 90, 90})
                   .has_value());
  // Step 3 runs there too: the specific features add to sm_90's.
  EXPECT_TRUE(!why_not_runnable(kStep3, kSm80, Architectures{90, 90, 90}).has_value());
}

UNIT_TEST_MAIN()
