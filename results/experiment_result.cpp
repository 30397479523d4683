#include "results/experiment_result.h"

namespace ddalab {

std::string fileStem(const std::string& experimentName) {
  std::string stem;
  stem.reserve(experimentName.size());
  for (char c : experimentName) {
    if (c == '/')
      stem += "__";
    else
      stem += c;
  }
  return stem;
}

}  // namespace ddalab
