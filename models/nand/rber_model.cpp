#include "models/nand/rber_model.h"

#include <cmath>

namespace ssdvp::nand {

double RberModel::rber(uint32_t pe, double age_hours) const {
  const double n = double(pe), t = age_hours + p_.age_offset_hours;
  return p_.base + p_.wear_coeff * std::pow(n, p_.wear_exp) +
         p_.retention_coeff * std::pow(n, p_.retention_wear_exp) * std::pow(std::max(t, 0.0), p_.retention_exp);
}

uint32_t RberModel::retry_steps(uint32_t pe, double age_hours) const {
  double r = rber(pe, age_hours);
  uint32_t steps = 0;
  while (r > p_.ecc_limit) {
    if (steps == p_.max_retries) return kUncorrectable;
    r /= p_.retry_gain;
    steps++;
  }
  return steps;
}

}  // namespace ssdvp::nand
