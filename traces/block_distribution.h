// Which block a random request touches: fio's random_distribution over a range of blocks.
//
// Models: uniform; zipf:THETA (rank k drawn with probability ~ k^-THETA); pareto:H (the first
// H of the ranks get 1-H of the accesses, fio's power-law form); hotcold:HOT/ACC (ACC % of the
// accesses go uniformly to HOT % of the blocks, the rest uniformly to the others).  Ranks of
// the skewed distributions are spread over the range by a keyed bijection (scramble) unless
// scrambling is off, in which case rank 0 is block 0.
// Leaves out: fio's normal/gauss and zoned distributions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "traces/block_scrambler.h"
#include "traces/random.h"
#include "traces/spec_options.h"
#include "traces/zipf_sampler.h"

namespace ssdvp::workload {

struct DistributionSpec {
  enum class Kind { Uniform, Zipf, Pareto, HotCold };
  Kind kind = Kind::Uniform;
  double parameter = 0;   // zipf theta, pareto h (fraction), hot fraction of blocks
  double hot_access = 0;  // hotcold: fraction of accesses that go to the hot blocks
};

// Parses the value of option `key` ("random", "zipf:1.2", "pareto:0.2", "hotcold:20/80").
DistributionSpec parse_distribution(const SpecOptions& options, std::string_view key);

// "random", "zipf:1.2", ... as accepted by parse_distribution.
std::string distribution_name(const DistributionSpec& spec);

class BlockDistribution {
 public:
  // `blocks` >= 1 (>= 2 for hotcold); `scramble_key` chooses the spreading bijection.
  BlockDistribution(const DistributionSpec& spec, uint64_t blocks, bool scramble,
                    uint64_t scramble_key);
  // A block index in [0, blocks); hot (if given): whether it is one of hotcold's hot blocks.
  uint64_t sample(Rng& rng, bool* hot = nullptr) const;

 private:
  uint64_t rank(Rng& rng) const;

  DistributionSpec spec_;
  uint64_t blocks_;
  bool scramble_;
  BlockScrambler scrambler_;
  std::optional<ZipfSampler> zipf_;
  double pareto_power_ = 0;
  uint64_t hot_blocks_ = 0;
};

}  // namespace ssdvp::workload
