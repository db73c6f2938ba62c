// The face of a game module (the contract: solver/module/module.hpp) as the command line sees
// it. Only registry.cpp includes it: it brings the tier engine, which instantiates here for
// each tier game, and every other file reaches a game through the Game interface.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/module/module.hpp"
#include "solver/module/tier_module.hpp"
#include "tools/registry.hpp"

namespace toadbase::tools {

/// The face of a module M (the contract: solver/module/module.hpp).
template <Module M>
class Registered : public Game {
 public:
  std::string name() const override { return M::kName; }
  std::string title() const override { return M::kTitle; }
  bool has_database() const override { return TierGameRules<M> || OwnEngine<M>; }
  std::vector<ParamSpec> parameters() const override {
    if constexpr (WithParameters<M>) {
      return M::parameters();
    } else {
      return {};
    }
  }
  nlohmann::json normalize(const nlohmann::json& given) const override {
    if constexpr (WithParameters<M>) {
      return M::normalize(given);
    } else {
      (void)given;
      throw std::invalid_argument(std::string(M::kName) + " has no position database");
    }
  }
  std::unique_ptr<Instance> instance(const nlohmann::json& normalized,
                                     const std::string& record = "") const override {
    if constexpr (TierGameRules<M>) {
      return make_tier_instance<M>(normalized, record);
    } else if constexpr (OwnEngine<M>) {
      auto inst = M::make_instance(normalized);
      if (!record.empty() && record != inst->identity().record)
        throw std::invalid_argument(std::string(M::kName) + " has no record '" + record +
                                    "': it writes " + inst->identity().record);
      return inst;
    } else {
      (void)normalized, (void)record;
      throw std::invalid_argument(std::string(M::kName) + " has no position database");
    }
  }
  std::vector<std::string> records() const override {
    if constexpr (TierGameRules<M>) {
      return tier_records<M>();
    } else {
      return {};
    }
  }
  std::vector<GameCommand> add_commands(CLI::App& root, const Host& host) const override {
    if constexpr (WithCommands<M>) {
      return M::add_commands(root, host);
    } else {
      (void)root, (void)host;
      return {};
    }
  }
  std::vector<ApiRoute> api_routes() const override {
    if constexpr (WithApiRoutes<M>) {
      return M::api_routes();
    } else {
      return {};
    }
  }
  std::optional<UwapiGame> uwapi() const override {
    if constexpr (WithUwapi<M>) {
      return M::uwapi();
    } else {
      return std::nullopt;
    }
  }
  bool win_lose() const override { return TierGameRules<M>; }
  bool cgt_values() const override {
    if constexpr (requires { M::kCgtValues; }) {
      return M::kCgtValues;
    } else {
      return false;
    }
  }
  PageView page() const override {
    if constexpr (WithPage<M>) {
      return M::page();
    } else {
      PageView v;
      v.title = M::kTitle;
      return v;
    }
  }
};

}  // namespace toadbase::tools
