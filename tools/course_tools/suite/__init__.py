"""The GPU suite (gpu_suite.sh) and the summaries it prints: the speed bars' margins and the
holds of the GPU lock."""
