#pragma once
// The format tags of ddalab's batch files (docs/formats.md), which batch.h parses and sweep.h
// expands.

namespace ddalab {

inline constexpr const char* kBatchFormat = "ddalab-batch/1";
inline constexpr const char* kExperimentFormat = "ddalab-experiment/1";

}  // namespace ddalab
