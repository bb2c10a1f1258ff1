// SPDX-License-Identifier: MIT
// The first-view module's stand-ins for core/src/config/config_other_families.cpp (linked into
// fitcheck-inference only, CMakeLists.txt): a config of a family outside the common set is refused
// with FamilyNotInBuild, and the page reads it with the full module. The readers of those families
// are then referenced by nothing in this module, and the linker leaves them out of its download.
#include "config/config_other_families.hpp"
#include "fitcheck/config.hpp"

namespace fitcheck::detail {
namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw FamilyNotInBuild("model_type", what + " is read by the full module of the core, not this first-view module");
}

}  // namespace

void read_other_family(const std::string& type, const ConfigFields&, ModelDescription&) {
  refuse("model_type '" + type + "'");
}

VisionTower read_other_vision_tower(const std::string& wrapper, const ConfigFields&, ModelDescription&) {
  refuse("the vision tower of '" + wrapper + "'");
}

AudioTower read_other_audio_tower(const std::string& wrapper, const ConfigFields&, ModelDescription&) {
  refuse("the audio tower of '" + wrapper + "'");
}

}  // namespace fitcheck::detail
