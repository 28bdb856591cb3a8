#pragma once
// Numbers written as text (.map brushes and keys, pose keys, entity origins, messages): the
// shortest form that reads back as the same double, integral values as plain digits (no
// exponent below 2^53), and never "-0".
#include <string>

namespace shallot {

void appendNumber(std::string& out, double v);
std::string numberText(double v);

} // namespace shallot
