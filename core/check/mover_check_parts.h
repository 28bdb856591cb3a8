#pragma once
// The parts of checkMovers (check/mover_checks.h), one rule per file.
#include "check/mover_checks.h"

#include <string>
#include <vector>

namespace shallot {

// never_opens (never_opens.cpp).
void findNeverOpens(const MoverCheckInput& input, std::vector<SpawnProblem>& out);
// blocked (mover_blocking.cpp).
void findBlocked(const MoverCheckInput& input, const EntityClassTable& classes, std::vector<SpawnProblem>& out);

// A mover's problem at its bounds (centre as origin), named as the spawn checks name
// entities.
SpawnProblem moverProblem(SpawnProblemKind kind, const Mover& mover);
std::string describeMover(const Mover& mover);

} // namespace shallot
