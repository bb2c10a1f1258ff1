// SPDX-License-Identifier: MIT
// The CPU catalog's table and its short names (cpu_catalog.cpp), which cpu.cpp searches.
#pragma once

#include <span>

#include "fitcheck/cpu.hpp"

namespace fitcheck::detail {

struct CpuAlias {
  const char* alias;
  const char* id;  // a catalog id
};

std::span<const CpuDevice> cpu_table();
std::span<const CpuAlias> cpu_aliases();

}  // namespace fitcheck::detail
