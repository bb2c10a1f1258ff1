// SPDX-License-Identifier: MIT
// A user-defined accelerator that owns the strings its Accelerator view points into.
#include <memory>
#include <string>

#include "fitcheck/hardware.hpp"

namespace fitcheck {
namespace {

struct OwnedAccelerator {
  std::string name, interconnect, sources;
  Accelerator accelerator{};
};

}  // namespace

std::shared_ptr<const Accelerator> make_custom_accelerator(const Accelerator& figures, std::string name,
                                                           std::string interconnect, const Accelerator* based_on) {
  auto owned = std::make_shared<OwnedAccelerator>();
  owned->name = std::move(name);
  owned->interconnect = std::move(interconnect);
  owned->sources = based_on ? std::string("user-defined, based on ") + based_on->id + " (" + based_on->sources + ")"
                            : std::string("user-defined");
  Accelerator& a = owned->accelerator;
  a = figures;
  a.id = kCustomAcceleratorId;
  a.name = owned->name.c_str();
  a.vendor = "user-defined";
  a.interconnect = owned->interconnect.c_str();
  a.price_source = "user-defined";
  a.sources = owned->sources.c_str();
  // Aliasing constructor: the pointer is to the view, the lifetime is the whole owned block.
  return std::shared_ptr<const Accelerator>(owned, &owned->accelerator);
}

}  // namespace fitcheck
