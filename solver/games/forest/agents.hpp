// The wanderers. Each is one small class behind forest::Agent.
//
// original  a port of the original program's rule (../shared/spec/magic-forest.md): on a new
//           tile c with v visited in-bounds neighbours, q = 1/(4 - v) (4 even on edges); each
//           unvisited neighbour t becomes reachable and gets pM += q if c has bones else
//           pM = 0, pT += q if c has leaves else pT = 0. Frontier B = reachable unvisited
//           tiles, row-major. Destination: (1) the first t in B with pM = pT = 0; (2) else the
//           highest pM among pM > 0, pT = 0; (3) else the lowest pT among the tiles with pM = 0
//           or with the highest pM of those with pM > 0 and pT > 0; else B[0]. Ties: the first
//           in row-major order. Shoot before the last step when pM != 0. Walk a shortest path
//           over visited tiles. After a death: a monster tile gets pM = 1, pT = 0; a trap tile
//           leaves the frontier for good (our reading; the spec is silent).
// bayes     exact beliefs (posterior.hpp), each step chosen by expected score (bayes.cpp).
// optimal   3x3: the expectimax over every belief state (optimal.hpp).
// oracle    knows the forest: the cheapest way to the portal, traps forbidden, a monster tile
//           costing a stone (10) plus the step; the perfect-information upper bound.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/games/forest/forest.hpp"

namespace toadbase::forest {

std::unique_ptr<Agent> make_agent(const std::string& name);
/// The bayes agent (bayes.cpp).
std::unique_ptr<Agent> make_bayes_agent();
const std::vector<std::string>& agent_names();

/// A shortest path from `from` to `to` over the tiles `ok` allows (`to` always allowed),
/// first step first; empty when there is none. Breadth-first, neighbours up-left-right-down.
std::vector<int> shortest_path(int side, int from, int to, const std::vector<uint8_t>& ok);

}  // namespace toadbase::forest
