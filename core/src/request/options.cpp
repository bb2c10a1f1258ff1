// SPDX-License-Identifier: MIT
#include "fitcheck/options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "config/config_fields.hpp"

namespace fitcheck {

OptionReader::OptionReader(const OptionList& options) : options_(options), used_(options.size(), false) {}

const std::string* OptionReader::find(const char* key) {
  const std::string* found = nullptr;
  for (std::size_t i = 0; i < options_.size(); ++i) {
    if (options_[i].first != key) continue;
    used_[i] = true;
    // Every value arrives with its length (CLI, WebAssembly, links): a NUL inside is never an end,
    // and it is refused in every value given for the key, not only in the one that wins.
    if (options_[i].second.find('\0') != std::string::npos)
      throw OptionError(key, std::string("option '") + key + "' holds a NUL byte, got '" +
                                 detail::printable(options_[i].second) + "'");
    found = &options_[i].second;  // the last one wins, as on a command line
  }
  return found;
}

namespace {

// The one grammar of numeric option values, for the CLI, WebAssembly and the page's links alike:
// optional spaces or tabs around, an optional '-', decimal digits; numbers may add a fraction
// ("0.5", ".5", "5.") and an exponent ("1e-3"). No '+', no hex, no inf or nan, no inner spaces,
// no underscores. Returns the text without the surrounding blanks, or nullopt.
std::optional<std::string> numeric_text(const std::string& value, bool whole) {
  std::size_t begin = 0, end = value.size();
  while (begin < end && (value[begin] == ' ' || value[begin] == '\t')) ++begin;
  while (end > begin && (value[end - 1] == ' ' || value[end - 1] == '\t')) --end;
  const std::string text = value.substr(begin, end - begin);
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  std::size_t mantissa = digits();
  if (!whole && i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return std::nullopt;
  if (!whole && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  return text;
}

}  // namespace

std::vector<std::string> split_option_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      while (!item.empty() && item.back() == ' ') item.pop_back();
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else if (!(c == ' ' && item.empty())) {
      item += c;
    }
  }
  return items;
}

std::int64_t option_list_count(const char* key, const std::string& item, std::int64_t minimum, std::int64_t maximum) {
  const OptionList one{{key, item}};
  OptionReader reader(one);
  return reader.count(key, 0, minimum, maximum);
}

std::optional<std::string> OptionReader::text(const char* key) {
  const std::string* value = find(key);
  if (!value) return std::nullopt;
  return *value;
}

std::int64_t OptionReader::count(const char* key, std::int64_t fallback, std::int64_t minimum, std::int64_t maximum) {
  const std::string* value = find(key);
  if (!value) return fallback;
  const auto text = numeric_text(*value, true);
  errno = 0;
  char* end = nullptr;
  const long long parsed = text ? std::strtoll(text->c_str(), &end, 10) : 0;
  if (text && errno == ERANGE)
    throw OptionError(key, std::string("option '") + key + "' must be between " + std::to_string(minimum) + " and " +
                               std::to_string(maximum) + ", got " + detail::printable(*value));
  if (!text || *end != '\0')
    throw OptionError(
        key, std::string("option '") + key + "' must be a whole number, got '" + detail::printable(*value) + "'");
  if (parsed < minimum || parsed > maximum)
    throw OptionError(key, std::string("option '") + key + "' must be between " + std::to_string(minimum) + " and " +
                               std::to_string(maximum) + ", got " + detail::printable(*value));
  return parsed;
}

double OptionReader::number(const char* key, double fallback, double minimum, double maximum) {
  const std::string* value = find(key);
  if (!value) return fallback;
  const auto text = numeric_text(*value, false);
  char* end = nullptr;
  const double parsed = text ? std::strtod(text->c_str(), &end) : 0.0;
  if (!text || *end != '\0' || !std::isfinite(parsed))
    throw OptionError(
        key, std::string("option '") + key + "' must be a finite number, got '" + detail::printable(*value) + "'");
  if (parsed < minimum || parsed > maximum) {
    char range[64];  // "0.01 and 1", not std::to_string's "0.010000 and 1.000000"
    std::snprintf(range, sizeof range, "%g and %g", minimum, maximum);
    throw OptionError(
        key, std::string("option '") + key + "' must be between " + range + ", got " + detail::printable(*value));
  }
  return parsed;
}

bool OptionReader::flag(const char* key, bool fallback) {
  const std::string* value = find(key);
  if (!value) return fallback;
  if (*value == "true" || *value == "1" || value->empty()) return true;
  if (*value == "false" || *value == "0") return false;
  throw OptionError(key,
                    std::string("option '") + key + "' must be true or false, got '" + detail::printable(*value) + "'");
}

void OptionReader::finish() const {
  for (std::size_t i = 0; i < options_.size(); ++i)
    if (!used_[i])
      throw OptionError(options_[i].first, "unknown option '" + detail::printable(options_[i].first) + "'");
}

InferenceRequest parse_inference_options(const OptionList& options) {
  OptionReader reader(options);
  InferenceRequest request;
  InferenceWorkload& w = request.workload;
  if (auto weights = reader.text("weights")) {
    const auto format = find_weight_format(*weights);
    if (!format)
      throw OptionError("weights", "option 'weights': unknown weight format '" + detail::printable(*weights) +
                                       "' (e.g. bf16, fp8, q4_k_m, gptq, awq, nf4, mxfp4)");
    w.weight_format = *format;
    request.weight_format_given = true;
  }
  w.weight_options.bits = static_cast<int>(reader.count("weight_bits", 4, 2, 8));
  w.weight_options.group_size = reader.count("group_size", 128, -1, 1 << 20);
  if (w.weight_options.group_size == 0)
    throw OptionError("group_size", "option 'group_size' must be -1 (per channel) or positive");
  // The packings these formats have (quantization_bytes.cpp would refuse the rest without naming the option).
  const int bits = w.weight_options.bits;
  if (w.weight_format == WeightFormat::gptq && bits != 2 && bits != 3 && bits != 4 && bits != 8)
    throw OptionError("weight_bits", "option 'weight_bits' must be 2, 3, 4 or 8 for GPTQ, got " + std::to_string(bits));
  if (w.weight_format == WeightFormat::awq && bits != 4)
    throw OptionError("weight_bits",
                      "option 'weight_bits' must be 4 for AWQ (it packs 4-bit only), got " + std::to_string(bits));
  if (auto kv = reader.text("kv_dtype")) {
    const auto* info = find_kv_cache_dtype(*kv);
    if (!info)
      throw OptionError("kv_dtype", "option 'kv_dtype': unknown KV cache dtype '" + detail::printable(*kv) +
                                        "' (bf16, fp16, fp32, fp8, int8, int4)");
    w.kv_cache_dtype = info->dtype;
  }
  w.batch_size = reader.count("batch", 1, 1, std::int64_t{1} << 24);
  const bool context_given = reader.text("context").has_value();
  w.context_tokens = reader.count("context", 4096, 1, std::int64_t{1} << 32);
  request.prefill_chunk_given = reader.text("prefill_chunk").has_value();
  w.prefill_chunk_tokens = reader.count("prefill_chunk", 0, 0, std::int64_t{1} << 32);
  request.kv_block_given = reader.text("kv_block").has_value();
  w.kv_block_tokens = reader.count("kv_block", 0, 0, 65536);
  request.images = reader.count("images", 0, 0, 4096);
  request.image_size_given = reader.text("image_width").has_value() || reader.text("image_height").has_value();
  request.image_width = reader.count("image_width", kDefaultImageSidePixels, 1, 1 << 16);
  request.image_height = reader.count("image_height", kDefaultImageSidePixels, 1, 1 << 16);
  w.layout.tensor_parallel = reader.count("tp", 1, 1, 4096);
  w.layout.pipeline_parallel = reader.count("pp", 1, 1, 4096);
  w.layout.expert_parallel = reader.count("ep", 1, 1, 65536);
  request.gpu_memory_utilization_given = reader.text("gpu_memory_utilization").has_value();
  w.gpu_memory_utilization = reader.number("gpu_memory_utilization", 0.9, 0.01, 1.0);
  if (auto engine = reader.text("engine")) {
    request.engine = find_engine_kind(*engine);
    if (!request.engine)
      throw OptionError("engine", "option 'engine': unknown engine '" + detail::printable(*engine) +
                                      "' (vllm, sglang, trtllm, llamacpp, hf, vllm-v0)");
  }
  if (auto cache = reader.text("hf_cache")) {
    request.hf_static_cache = *cache == "static";
    if (request.engine != EngineKind::hf || (*cache != "dynamic" && !request.hf_static_cache))
      throw OptionError("hf_cache",
                        "option 'hf_cache' takes dynamic or static, with engine hf (transformers generate)");
  }
  if (auto sampler = reader.text("vllm_sampler")) {
    if (*sampler != "torch" && *sampler != "flashinfer")
      throw OptionError("vllm_sampler",
                        "option 'vllm_sampler' takes torch or flashinfer, got '" + detail::printable(*sampler) + "'");
    if (request.engine != EngineKind::vllm && request.engine != EngineKind::vllm_v0)
      throw OptionError("vllm_sampler", "option 'vllm_sampler' is vLLM's: give it with engine vllm or vllm-v0");
    request.vllm_flashinfer_sampler = *sampler == "flashinfer";
  }
  if (reader.text("max_model_len")) {
    request.max_model_len = reader.count("max_model_len", 0, 1, std::int64_t{1} << 31);
    if (request.engine != EngineKind::vllm && request.engine != EngineKind::vllm_v0)
      throw OptionError("max_model_len", "option 'max_model_len' is vLLM's: give it with engine vllm or vllm-v0");
  }
  w.framework_overhead_bytes =
      static_cast<std::int64_t>(reader.number("overhead_gib", 1.0, 0.0, 1024.0) * 1024.0 * 1024.0 * 1024.0);
  w.flash_attention = !reader.flag("eager_attention", false);
  w.logits_all_positions = reader.flag("logits_all_positions", false);
  const auto gpu = reader.text("gpu");
  request.custom_gpu = read_custom_gpu_options(reader, gpu && is_custom_gpu_name(*gpu));
  if (gpu) request.gpu = resolve_gpu_option("gpu", *gpu, request.custom_gpu);
  read_latency_options(reader, request, context_given);
  if (request.hf_static_cache && (request.lengths.speculative.draft_tokens > 0 || w.prefill_chunk_tokens > 0))
    throw OptionError("hf_cache", "option 'hf_cache' static is not modelled with spec_tokens or prefill_chunk");
  reader.finish();
  return request;
}

}  // namespace fitcheck
