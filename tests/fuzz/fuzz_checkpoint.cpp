// SPDX-License-Identifier: MIT
// Weight-file headers: parse_gguf_header, parse_safetensors_header, parse_safetensors_index and
// checkpoint_read_json over arbitrary bytes. Either a CheckpointError naming an offset, a request
// for more bytes past the input, or a summary whose totals add up and whose report is JSON.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fitcheck/checkpoint.hpp"
#include "fuzz_support.hpp"

namespace {

using namespace fitcheck;

// The report is JSON, its strings UTF-8, its numbers integers in [0, 2^53]; null stands for a
// hyperparameter the file does not state.
void check_json(const std::string& report) {
  if (!fuzz::valid_utf8(report)) fuzz::fail("report is not valid UTF-8", report);
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(report);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("report is not JSON: ") + error.what(), report);
  }
  std::vector<const nlohmann::json*> stack{&parsed};
  while (!stack.empty()) {
    const nlohmann::json& value = *stack.back();
    stack.pop_back();
    if (value.is_structured()) {
      for (const auto& item : value) stack.push_back(&item);
    } else if (value.is_number_float() ||
               (value.is_number_integer() && !value.is_number_unsigned() && value.get<std::int64_t>() < 0) ||
               (value.is_number_unsigned() && value.get<std::uint64_t>() > (std::uint64_t{1} << 53))) {
      fuzz::fail("a number outside the integers [0, 2^53]", report);
    }
  }
}

void check_summary(const CheckpointSummary& s, std::string_view text) {
  std::int64_t elements = 0, bytes = 0, by_type_tensors = 0, by_type_elements = 0, by_type_bytes = 0;
  for (const CheckpointTensor& t : s.tensors) {
    if (t.elements < 0 || t.bytes < 0) fuzz::fail("negative tensor size", text);
    elements += t.elements;
    bytes += t.bytes;
  }
  for (const CheckpointTypeTotal& row : s.by_type) {
    by_type_tensors += row.tensors;
    by_type_elements += row.elements;
    by_type_bytes += row.bytes;
  }
  if (s.format != CheckpointFormat::safetensors_index) {
    if (elements != s.total_parameters || bytes != s.total_bytes) fuzz::fail("tensors do not sum to the totals", text);
    if (by_type_tensors != static_cast<std::int64_t>(s.tensors.size()) || by_type_elements != s.total_parameters ||
        by_type_bytes != s.total_bytes)
      fuzz::fail("by_type does not sum to the totals", text);
    if (s.data_offset_bytes < s.header_bytes) fuzz::fail("tensor data starts inside the header", text);
  }
  if (s.format == CheckpointFormat::gguf && (s.alignment_bytes == 0 || s.data_offset_bytes % s.alignment_bytes != 0))
    fuzz::fail("GGUF data offset not aligned", text);
  check_json(checkpoint_report_json(s));
}

void check_error(const CheckpointError& error, std::uint64_t size) {
  const std::string_view message = error.what();
  if (message.rfind("offset ", 0) != 0) fuzz::fail("checkpoint error without an offset", message);
  if (error.offset() > size + 8) fuzz::fail("checkpoint error offset past the input", message);
  fuzz::check_refusal(message, error.field(), false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto bytes = std::as_bytes(std::span<const std::uint8_t>(data, size));
  // A prefix of unknown length: complete, or asking for more than it has.
  for (const auto parse : {&parse_gguf_header, &parse_safetensors_header}) {
    try {
      const CheckpointRead read = parse(bytes, 0);
      if (read.complete)
        check_summary(read.summary, text);
      else if (read.bytes_needed <= size)
        fuzz::fail("asks for bytes it already has", text);
    } catch (const CheckpointError& error) {
      check_error(error, size);
    } catch (const std::exception& error) {
      fuzz::fail(std::string("a header reader threw something other than CheckpointError: ") + error.what(), text);
    }
    // The whole file: never a request for more.
    if (size == 0) continue;
    try {
      const CheckpointRead read = parse(bytes, size);
      if (!read.complete) fuzz::fail("asks for more bytes than the whole file", text);
      check_summary(read.summary, text);
    } catch (const CheckpointError& error) {
      check_error(error, size);
    } catch (const std::exception& error) {
      fuzz::fail(std::string("a header reader threw something other than CheckpointError: ") + error.what(), text);
    }
  }
  try {
    check_summary(parse_safetensors_index(text), text);
  } catch (const CheckpointError& error) {
    check_error(error, size);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("parse_safetensors_index threw something other than CheckpointError: ") + error.what(),
               text);
  }
  try {
    check_json(checkpoint_read_json(bytes, size));
  } catch (const CheckpointError& error) {
    check_error(error, size);
  } catch (const std::exception& error) {
    fuzz::fail(std::string("checkpoint_read_json threw something other than CheckpointError: ") + error.what(), text);
  }
  return 0;
}
