#pragma once
// Reading the text of written .map files in the tests (grid_exact_test,
// map_export_property_test).
#include <sstream>
#include <string>
#include <vector>

namespace shallot::test {

// The nine coordinate tokens of a face line "( x y z ) ( x y z ) ( x y z ) ...".
inline std::vector<std::string> pointTokens(const std::string& line) {
    std::vector<std::string> tokens;
    std::istringstream in(line);
    for (std::string t; tokens.size() < 9 && in >> t;)
        if (t != "(" && t != ")") tokens.push_back(t);
    return tokens;
}

} // namespace shallot::test
