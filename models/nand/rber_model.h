// Raw bit error rate of a page as its block wears and its data ages, and what it costs to read
// it: the read-retry steps (reads again with shifted read voltages) the controller needs
// before ECC decodes the page (docs/reliability.md, "Wear").
//
// Models: RBER(N, t) = base + wear_coeff * N^wear_exp + retention_coeff * N^retention_wear_exp
// * t^retention_exp, N the block's P/E cycles and t the data's age in hours (the power-law form
// fitted to MLC measurements in the SSD literature, e.g. Pan et al., HPCA 2012; the
// coefficients are the configuration's).  ECC decodes a read whose RBER is at most ecc_limit;
// each read-retry step divides the RBER the decoder sees by retry_gain; a page needing more
// than max_retries steps is uncorrectable.  Deterministic: every page of a block reads alike.
// Leaves out: per-page and per-cell variation, read disturb, temperature, program
// interference, soft-decision decoding, the retry table of a real part (steps are uniform).
#pragma once

#include <cstdint>

#include "models/common/params.h"

namespace ssdvp::nand {

class RberModel {
 public:
  static constexpr uint32_t kUncorrectable = UINT32_MAX;
  explicit RberModel(const RberParams& p) : p_(p) {}
  bool enabled() const { return p_.enabled(); }
  // The RBER of data `age_hours` old (the offset added) in a block erased `pe` times.
  double rber(uint32_t pe, double age_hours) const;
  // Read-retry steps a read of that data needs (0: ECC decodes the first read), or
  // kUncorrectable.
  uint32_t retry_steps(uint32_t pe, double age_hours) const;

 private:
  RberParams p_;
};

}  // namespace ssdvp::nand
