#pragma once
// Numbers written as text (.map brushes and keys, pose keys, entity origins, messages): the
// shortest decimals in fixed notation that read back as the same double (never an exponent:
// 1e-10 is "0.0000000001"), integral values as plain digits, and never "-0".
#include <string>

namespace shallot {

void appendNumber(std::string& out, double v);
std::string numberText(double v);

} // namespace shallot
