// Random block distributions: see block_distribution.h.
#include "traces/block_distribution.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "traces/text_fields.h"

namespace ssdvp::workload {

DistributionSpec parse_distribution(const SpecOptions& options, std::string_view key) {
  const std::string_view value = options.text(key).value_or("random");
  DistributionSpec spec;
  if (value == "random") return spec;
  const size_t colon = value.find(':');
  const std::string_view name = value.substr(0, colon);
  const std::string_view argument =
      colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
  if (name == "zipf") {
    const std::optional<double> theta = parse_real(argument);
    if (!theta || *theta <= 0) options.fail(key, "zipf needs a theta > 0, e.g. zipf:1.2");
    spec.kind = DistributionSpec::Kind::Zipf;
    spec.parameter = *theta;
  } else if (name == "pareto") {
    const std::optional<double> h = parse_real(argument);
    if (!h || *h <= 0 || *h >= 1) options.fail(key, "pareto needs 0 < H < 1, e.g. pareto:0.2");
    spec.kind = DistributionSpec::Kind::Pareto;
    spec.parameter = *h;
  } else if (name == "hotcold") {
    const size_t slash = argument.find('/');
    const std::optional<double> hot = parse_real(argument.substr(0, slash));
    const std::optional<double> access =
        slash == std::string_view::npos ? std::nullopt : parse_real(argument.substr(slash + 1));
    if (!hot || !access || *hot <= 0 || *hot >= 100 || *access < 0 || *access > 100) {
      options.fail(key,
                   "hotcold needs HOT/ACCESS percentages, 0 < HOT < 100, "
                   "0 <= ACCESS <= 100, e.g. hotcold:20/80");
    }
    spec.kind = DistributionSpec::Kind::HotCold;
    spec.parameter = *hot / 100;
    spec.hot_access = *access / 100;
  } else {
    options.fail(key, "unknown distribution (random, zipf:THETA, pareto:H, hotcold:HOT/ACCESS)");
  }
  return spec;
}

std::string distribution_name(const DistributionSpec& spec) {
  std::ostringstream name;
  switch (spec.kind) {
    case DistributionSpec::Kind::Uniform: name << "random"; break;
    case DistributionSpec::Kind::Zipf: name << "zipf:" << spec.parameter; break;
    case DistributionSpec::Kind::Pareto: name << "pareto:" << spec.parameter; break;
    case DistributionSpec::Kind::HotCold:
      name << "hotcold:" << spec.parameter * 100 << "/" << spec.hot_access * 100;
      break;
  }
  return name.str();
}

BlockDistribution::BlockDistribution(const DistributionSpec& spec, uint64_t blocks, bool scramble,
                                     uint64_t scramble_key)
    : spec_(spec), blocks_(blocks), scramble_(scramble), scrambler_(blocks, scramble_key) {
  switch (spec_.kind) {
    case DistributionSpec::Kind::Uniform: break;
    case DistributionSpec::Kind::Zipf: zipf_.emplace(blocks_, spec_.parameter); break;
    case DistributionSpec::Kind::Pareto:
      // rank = blocks * u^p puts a fraction (1-h) of the draws below h * blocks when
      // p = log(h) / log(1-h).
      // log1p: for a tiny h, log(1 - h) rounds to 0 and the power to -infinity.
      pareto_power_ = std::log(spec_.parameter) / std::log1p(-spec_.parameter);
      break;
    case DistributionSpec::Kind::HotCold: {
      const double hot = std::round(static_cast<double>(blocks_) * spec_.parameter);
      hot_blocks_ = static_cast<uint64_t>(std::clamp(hot, 1.0, static_cast<double>(blocks_ - 1)));
      break;
    }
  }
}

uint64_t BlockDistribution::rank(Rng& rng) const {
  switch (spec_.kind) {
    case DistributionSpec::Kind::Uniform: return rng.below(blocks_);
    case DistributionSpec::Kind::Zipf: return zipf_->sample(rng) - 1;
    case DistributionSpec::Kind::Pareto: {
      const double rank =
          std::floor(static_cast<double>(blocks_) * std::pow(rng.unit(), pareto_power_));
      // Converted only when it fits (an infinite or NaN double does not convert).
      return rank < static_cast<double>(blocks_ - 1) ? static_cast<uint64_t>(rank) : blocks_ - 1;
    }
    case DistributionSpec::Kind::HotCold:
      if (rng.unit() < spec_.hot_access) return rng.below(hot_blocks_);
      return hot_blocks_ + rng.below(blocks_ - hot_blocks_);
  }
  return 0;  // unreachable: every kind returns above
}

uint64_t BlockDistribution::sample(Rng& rng, bool* hot) const {
  const uint64_t drawn = rank(rng);
  if (hot) *hot = spec_.kind == DistributionSpec::Kind::HotCold && drawn < hot_blocks_;
  if (!scramble_ || spec_.kind == DistributionSpec::Kind::Uniform) return drawn;
  return scrambler_(drawn);
}

}  // namespace ssdvp::workload
