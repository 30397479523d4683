#pragma once
// The trace oracle: every metric scored a second way, from a match's trace alone (a tracker fed
// only what the trace records), and the extended metrics once more the long way from the trace's
// statuses, the definitions of metrics.md read literally. The match checks hold the tracker's
// scores against both.
#include <array>

#include "core/metrics.h"
#include "core/params.h"

namespace ddalab {

// Every metric scored again from a trace alone (the legal counts, the environment rounds, the
// gains and, with `useOut` where the trace has them, who was out).
MetricValues metricsFromTrace(const Json& trace, double believability, bool useOut);

namespace conformance {

// drama_trailing, decisiveness_final_lead, uncertainty and comeback, in that order, from the
// statuses (and "out") of `trace`, without the tracker.
std::array<double, 4> extendedFromTrace(const Json& trace);

// drama_average, decisiveness_threshold and decisiveness_moves, in that order (Ludii's), from the
// statuses of `trace`, without the tracker.
std::array<double, 3> ludiiFromTrace(const Json& trace);

}  // namespace conformance

}  // namespace ddalab
